/**
 * Template ids: the rules every id obeys, and how publish picks one when the user gives none
 * (`--id`, else the component's static `documentId`, else the file name in kebab case).
 */
import path from 'node:path';
import { ImprintError } from './errors.js';

export const TEMPLATE_ID_RULES = 'letters, digits, "-", "_" and ".", at most 128 characters, not starting with "." and without ".."';
const ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function isValidTemplateId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.includes('..');
}

export function validateTemplateId(id: string): string {
  if (!isValidTemplateId(id)) {
    throw new ImprintError('INVALID_INPUT', `Invalid template id "${id}": use ${TEMPLATE_ID_RULES}.`);
  }
  return id;
}

/** "InvoiceTemplate.tsx" -> "invoice-template", "my_report.v2.tsx" -> "my-report-v2". */
export function kebabCaseFromFileName(file: string): string {
  return path
    .basename(file, path.extname(file))
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

/**
 * Finds a static `documentId` in the template's source without running it: templates run
 * only in the browser, so we read the assignment as text. Recognises
 * `Invoice.documentId = 'x'`, `static documentId = 'x'` and `export const documentId = 'x'`.
 */
export function findStaticDocumentId(source: string): string | undefined {
  const pattern = /(?:\.\s*documentId|static\s+(?:readonly\s+)?documentId|export\s+const\s+documentId)\s*(?::\s*string\s*)?=\s*(['"`])([^'"`\n]+)\1/;
  return pattern.exec(source)?.[2];
}

export function chooseTemplateId(options: { explicitId?: string; source: string; file: string }): string {
  const id = options.explicitId ?? findStaticDocumentId(options.source) ?? kebabCaseFromFileName(options.file);
  return validateTemplateId(id);
}
