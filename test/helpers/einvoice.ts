/** The official validators, as `imprint check --einvoice` runs them, for tests that check XML Imprint wrote. */
import assert from 'node:assert/strict';
import { findValidationTools } from '../../src/cli/einvoice-tools.js';
import { validateEInvoiceXml, type ValidationReport } from '../../src/core/einvoice/validate/run-validation.js';

export const validationTools = () => findValidationTools(process.env);

export async function validateOfficially(xml: string): Promise<ValidationReport> {
  return validateEInvoiceXml(xml, validationTools());
}

/** No fatal or error finding; the failures listed in the assertion message when there are some. */
export function assertValid(report: ValidationReport, what: string): void {
  const failures = report.findings.filter((finding) => finding.severity === 'fatal' || finding.severity === 'error');
  assert.deepEqual(failures.map((f) => `${f.step}: [${f.rule}] ${f.message}`), [], `${what} fails the official validation`);
  assert.equal(report.valid, true);
}
