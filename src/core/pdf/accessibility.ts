/**
 * The accessibility step of the finishing pipeline (after the Info fields, before PDF/A): the
 * outline as the template named it (outline.ts) and, when asked, PDF/UA (pdfua.ts), in one
 * pdf-lib pass. A document that needs neither is returned untouched: the default render pays
 * nothing here.
 */
import type { PageFacts } from '../render/page-facts.js';
import type { AccessibilityOptions } from './accessibility-options.js';
import { nameOutline } from './outline.js';
import { loadPdfLib } from './pdf-lib.js';
import { makePdfUa } from './pdfua.js';

const OBJECTS_PER_TICK = 2000;

export async function finishAccessibility(pdf: Buffer, options: AccessibilityOptions, facts: PageFacts | undefined): Promise<Buffer> {
  if (!facts?.headings && !options.pdfua) return pdf;
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: OBJECTS_PER_TICK });
  if (facts?.headings) nameOutline(lib, doc, facts.headings);
  if (options.pdfua) makePdfUa(lib, doc, pdf, facts ?? {});
  return Buffer.from(await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK }));
}
