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
    const first = violations[0]!;
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    throw new ImprintError('INVALID_INPUT', `${source} breaks ${first.rule} (${first.term})${more}: ${first.message}`, { details: violations.map(describeViolation).join('\n') });
  }
  return calculated;
}

export function writeEInvoiceXml(calculated: CalculatedInvoice, profile: EInvoiceProfile, syntax: EInvoiceSyntax): string {
  return syntax === 'ubl' ? writeUbl(calculated, profile) : writeCii(calculated, profile);
}
