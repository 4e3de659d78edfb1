/**
 * The invoice inside a Factur-X / ZUGFeRD / XRechnung PDF, and what the PDF says about it:
 * the attachment's name and AFRelationship, whether the catalog lists it in /AF, and the XMP's
 * PDF/A part and fx: properties. The XML itself is then validated like any other
 * (run-validation.ts); these findings join its report.
 */
import { ImprintError, isImprintError } from '../../errors.js';
import { decodeCeilingError, decodeCeilingHits } from '../../pdf/decode-ceiling.js';
import { loadPdfLib } from '../../pdf/pdf-lib.js';
import { decodeStreamCapped } from '../../pdf/stream-bytes.js';
import { PROFILES } from '../profiles.js';
import type { DetectedDocument } from './validation-plan.js';
import type { ValidationFinding } from './run-validation.js';

/** The names Factur-X 1.x, ZUGFeRD 2.x / 1.x and XRechnung give the attachment. */
const INVOICE_FILE_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml'];

/**
 * The most an attached invoice may inflate to. A real one is kilobytes to a few megabytes (a
 * 100,000-line invoice is about 40 MB of CII); the cap stops a compression bomb (issue 41, case 7).
 */
export const MAX_ATTACHED_INVOICE_BYTES = 64 * 1024 * 1024;
/** The most the catalog's XMP metadata may inflate to: a PDF/A's is a few kilobytes. */
const MAX_XMP_BYTES = 4 * 1024 * 1024;

export interface PdfInvoice {
  xml: string;
  fileName: string;
  relationship?: string;
  listedInAF: boolean;
  xmp?: string;
}

export async function extractPdfInvoice(pdf: Buffer): Promise<PdfInvoice> {
  const pdfLib = await loadPdfLib();
  const { PDFDocument, PDFName, PDFArray, PDFDict, PDFRawStream, PDFString, PDFHexString } = pdfLib;
  let doc;
  const ceilingHitsBefore = decodeCeilingHits();
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    if (isImprintError(error)) throw error;
    throw new ImprintError('INVALID_INPUT', `This file is not a PDF that can be read: ${(error as Error).message}`, { cause: error });
  }
  // pdf-lib skips an object it could not parse: one the decode ceiling stopped is a refusal, not a gap.
  if (decodeCeilingHits() > ceilingHitsBefore) throw decodeCeilingError();
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)?.lookupMaybe(PDFName.of('Names'), PDFArray);
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  const afRefs = new Set(af ? af.asArray().map((entry) => entry.toString()) : []);
  const found: string[] = [];
  for (let i = 0; names && i + 1 < names.size(); i += 2) {
    const key = names.lookup(i);
    const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : String(key);
    found.push(name);
    if (!INVOICE_FILE_NAMES.includes(name)) continue;
    const specRef = names.get(i + 1);
    const spec = names.lookup(i + 1, PDFDict);
    const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) throw new ImprintError('INVALID_INPUT', `The PDF's ${name} has no embedded file stream.`);
    const xml = decodeStreamCapped(pdfLib, stream, MAX_ATTACHED_INVOICE_BYTES, `The attached ${name}`).toString('utf8');
    const relationship = spec.lookupMaybe(PDFName.of('AFRelationship'), PDFName)?.decodeText();
    const metadata = doc.catalog.lookup(PDFName.of('Metadata'));
    const xmp = metadata instanceof PDFRawStream ? decodeStreamCapped(pdfLib, metadata, MAX_XMP_BYTES, "The PDF's XMP metadata").toString('utf8') : undefined;
    return { xml, fileName: name, relationship, listedInAF: afRefs.has(specRef.toString()), xmp };
  }
  throw new ImprintError(
    'INVALID_INPUT',
    `This PDF carries no e-invoice: none of its ${found.length} embedded files is named ${INVOICE_FILE_NAMES.join(', ')}${found.length ? ` (it has ${found.join(', ')})` : ''}.`,
  );
}

const xmpValue = (xmp: string | undefined, property: string) => (xmp ? new RegExp(`<${property}>([^<]*)</${property}>`).exec(xmp)?.[1]?.trim() : undefined);

/** What Factur-X asks of the PDF around the XML, for the profile the XML declares. */
export function checkPdfInvoice(found: PdfInvoice, document: DetectedDocument): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const step = 'Factur-X PDF embedding';
  const fail = (rule: string, message: string) => findings.push({ rule, severity: 'fatal', message, step });
  if (document.syntax !== 'cii') fail('FX-PDF-SYNTAX', `A Factur-X / ZUGFeRD PDF embeds CII; ${found.fileName} is UBL.`);
  const spec = document.profile ? PROFILES[document.profile] : undefined;
  if (!found.listedInAF) fail('FX-PDF-AF', `${found.fileName} is not listed in the catalog's /AF (associated files), as PDF/A-3 requires.`);
  if (spec) {
    if (found.fileName !== spec.fileName) fail('FX-PDF-NAME', `A ${spec.conformanceLevel} invoice is embedded as ${spec.fileName}, not ${found.fileName}.`);
    if (found.relationship !== spec.relationship) fail('FX-PDF-AFRELATIONSHIP', `A ${spec.conformanceLevel} invoice's AFRelationship is /${spec.relationship}, not ${found.relationship ? `/${found.relationship}` : 'missing'}.`);
  }
  if (xmpValue(found.xmp, 'pdfaid:part') !== '3') fail('FX-PDF-PDFA', 'The XMP metadata does not declare PDF/A-3 (pdfaid:part 3), which a Factur-X PDF is.');
  const level = xmpValue(found.xmp, 'fx:ConformanceLevel');
  if (spec && level !== spec.conformanceLevel) fail('FX-PDF-XMP', `The XMP's fx:ConformanceLevel is ${level === undefined ? 'missing' : JSON.stringify(level)}; the XML is ${JSON.stringify(spec.conformanceLevel)}.`);
  const fileName = xmpValue(found.xmp, 'fx:DocumentFileName');
  if (fileName !== found.fileName) fail('FX-PDF-XMP', `The XMP's fx:DocumentFileName is ${fileName === undefined ? 'missing' : JSON.stringify(fileName)}, not ${JSON.stringify(found.fileName)}.`);
  return findings;
}
