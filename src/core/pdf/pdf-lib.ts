/**
 * @cantoo/pdf-lib (the maintained fork of pdf-lib), loaded once and only when needed: Chromium's
 * PDFs take the fast path (info-rewrite.ts), so a render never waits for its 0.1 s of module
 * loading. The PDF/A step, the e-invoice reader and the finishing step's other path share it.
 */
export type PdfLib = typeof import('@cantoo/pdf-lib');

let pdfLib: Promise<PdfLib> | undefined;

export function loadPdfLib(): Promise<PdfLib> {
  pdfLib ??= import('@cantoo/pdf-lib');
  return pdfLib;
}
