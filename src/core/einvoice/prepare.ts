/**
 * From the model a template returned to a checked, calculated invoice, or an INVALID_INPUT
 * error that lists every broken rule by id and term: run before any page is printed, so
 * bad data never becomes a PDF that claims to be an e-invoice.
 */
import { ImprintError } from '../errors.js';
import type { CalculatedInvoice } from './calculate.js';
import type { EInvoiceProfile, EInvoiceSyntax } from './model.js';
import { writeCii } from './cii.js';
import { checkEInvoice, type RuleViolation } from './rules.js';
import { writeUbl } from './ubl.js';

export const describeViolation = (violation: RuleViolation) => `[${violation.rule}] ${violation.term}: ${violation.message}`;

/** `source`: where the model came from, for the message ("the einvoice of invoice.tsx"). */
export function prepareEInvoice(model: unknown, profile: EInvoiceProfile, source = 'The e-invoice model'): CalculatedInvoice {
  const { calculated, violations } = checkEInvoice(model, profile);
  if (violations.length > 0 || !calculated) {
    // The message names every broken rule (a service's caller sees only the message); the details say each in full.
    const first = violations[0]!;
    const others = [...new Set(violations.slice(1).map((violation) => violation.rule))];
    const also = others.length > 0 ? ` Also broken: ${others.join(', ')}.` : '';
    throw new ImprintError('INVALID_INPUT', `${source} breaks ${first.rule} (${first.term}): ${first.message}${also}`, { details: violations.map(describeViolation).join('\n') });
  }
  return calculated;
}

export function writeEInvoiceXml(calculated: CalculatedInvoice, profile: EInvoiceProfile, syntax: EInvoiceSyntax): string {
  return syntax === 'ubl' ? writeUbl(calculated, profile) : writeCii(calculated, profile);
}
