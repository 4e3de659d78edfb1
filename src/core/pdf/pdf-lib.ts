/**
 * @cantoo/pdf-lib (the maintained fork of pdf-lib), loaded once and only when needed: Chromium's
 * PDFs take the fast path (info-rewrite.ts), so a render never waits for its 0.1 s of module
 * loading. The PDF/A step, the e-invoice reader and the finishing step's other path share it.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { installDecodeCeiling } from './decode-ceiling.js';

export type PdfLib = typeof import('@cantoo/pdf-lib');

/**
 * pdf-lib parses and writes in slices, yielding to the event loop between them, so a service
 * keeps answering while a long document is edited. Its defaults (100 and 50 objects) make
 * a 100-page tagged PDF take several times longer; a slice of this size takes a few ms.
 */
const OBJECTS_PER_TICK = 2000;

/** How every finishing step loads a PDF to edit: in slices, and without pdf-lib writing its own Producer and dates. */
export const EDIT_LOAD_OPTIONS = { updateMetadata: false, parseSpeed: OBJECTS_PER_TICK } as const;

/**
 * How every finishing step saves: in slices; without object streams, so the file keeps
 * Chromium's plain form, which every reader opens and the in-place paths (classic-pdf.ts) and
 * the tag packer (object-streams.ts) read after it; no page added, no field appearance redrawn.
 */
export async function savePlain(doc: PDFDocument): Promise<Buffer> {
  return Buffer.from(await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK }));
}

let pdfLib: Promise<PdfLib> | undefined;

/** pdf-lib, its decoders bounded (decode-ceiling.ts) before any PDF is read with it. */
export function loadPdfLib(): Promise<PdfLib> {
  pdfLib ??= import('@cantoo/pdf-lib').then((loaded) => {
    installDecodeCeiling(loaded);
    return loaded;
  });
  return pdfLib;
}
