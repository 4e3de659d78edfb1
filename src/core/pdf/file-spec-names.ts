/**
 * The file spec of an attachment names its file twice, /F and /UF. pdf-lib writes /UF as UTF-16
 * hex even for an ASCII name; that is a valid text string, but poppler's `pdfdetach -savefile
 * factur-x.xml` (and other tools receivers extract by name with) do not match it, while they do
 * match the official Factur-X samples, which write a literal string. An ASCII name is written
 * as a literal string in both keys (issue 41, case 11); any other name keeps UTF-16.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { PdfLib } from './pdf-lib.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** After the attachment is embedded (doc.flush()): its file spec's names as literal strings. */
export function literalFileSpecNames(doc: PDFDocument, lib: PdfLib, fileName: string): void {
  if (!PRINTABLE_ASCII.test(fileName)) return;
  const { PDFArray, PDFDict, PDFName, PDFString } = lib;
  // A PDF/A-3 attachment is listed in the catalog's /AF (its AFRelationship puts it there).
  const listed = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  for (let i = 0; listed && i < listed.size(); i++) {
    const spec = listed.lookupMaybe(i, PDFDict);
    const named = spec?.lookup(PDFName.of('F'));
    if (spec && named instanceof PDFString && named.decodeText() === fileName) spec.set(PDFName.of('UF'), PDFString.of(fileName));
  }
}
