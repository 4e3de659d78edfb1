/**
 * @cantoo/pdf-lib (the maintained fork of pdf-lib), loaded once and only when needed: Chromium's
 * PDFs take the fast path (info-rewrite.ts), so a render never waits for its 0.1 s of module
 * loading. The PDF/A step, the e-invoice reader and the finishing step's other path share it.
 */
import { installDecodeCeiling } from './decode-ceiling.js';

export type PdfLib = typeof import('@cantoo/pdf-lib');

let pdfLib: Promise<PdfLib> | undefined;

/** pdf-lib, its decoders bounded (decode-ceiling.ts) before any PDF is read with it. */
export function loadPdfLib(): Promise<PdfLib> {
  pdfLib ??= import('@cantoo/pdf-lib').then((loaded) => {
    installDecodeCeiling(loaded);
    return loaded;
  });
  return pdfLib;
}
