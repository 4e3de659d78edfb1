/**
 * `imprint check --einvoice x.pdf|x.xml`: an XML invoice is validated as it is; a PDF's
 * embedded invoice is extracted, validated the same way, and the PDF's own Factur-X duties
 * (attachment name, AFRelationship, /AF, XMP) are checked beside it.
 */
import { checkPdfInvoice, extractPdfInvoice } from './pdf-invoice.js';
import { validateEInvoiceXml, type ValidationReport, type ValidationTools } from './run-validation.js';

export interface FileValidationReport extends ValidationReport {
  /** The attachment's name, for a PDF. */
  attachment?: string;
}

export async function validateEInvoiceFile(bytes: Buffer, tools: ValidationTools): Promise<FileValidationReport> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return validateEInvoiceXml(bytes.toString('utf8'), tools);
  const found = await extractPdfInvoice(bytes);
  const report = await validateEInvoiceXml(found.xml, tools);
  const pdfFindings = checkPdfInvoice(found, report.document);
  const findings = [...pdfFindings, ...report.findings];
  return { ...report, attachment: found.fileName, steps: ['Factur-X PDF embedding', ...report.steps], findings, valid: report.valid && pdfFindings.length === 0 };
}
