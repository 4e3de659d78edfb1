/**
 * The accessibility step of the finishing pipeline (after the Info fields, before PDF/A): the
 * outline as the template named it (outline.ts) and, when asked, PDF/UA (pdfua.ts), in one
 * pdf-lib pass; bookmarks alone are renamed in place (outline-in-place.ts). A document that
 * needs neither is returned untouched: the default render pays nothing here.
 *
 * compactTags is the other half of tagging by default: a tagged PDF's structure tree packed into
 * object streams (object-streams.ts), run once the document is otherwise final (after PDF/A,
 * whose pdf-lib pass writes plain objects again) and before anything that must come last.
 */
import type { PageFacts } from '../render/page-facts.js';
import { printAccessibility, type AccessibilityOptions } from './accessibility-options.js';
import { packObjectStreams } from './object-streams.js';
import { nameOutline } from './outline.js';
import { nameOutlineInPlace } from './outline-in-place.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain } from './pdf-lib.js';
import { makePdfUa } from './pdfua.js';

/** Whether the step has anything to do: bookmarks named by the page (data-outline), or PDF/UA. */
export const accessibilityStepNeeded = (options: AccessibilityOptions, facts: PageFacts | undefined): boolean => Boolean(facts?.headings) || Boolean(options.pdfua);

export async function finishAccessibility(pdf: Buffer, options: AccessibilityOptions, facts: PageFacts | undefined): Promise<Buffer> {
  if (!accessibilityStepNeeded(options, facts)) return pdf;
  // Bookmarks alone: renamed in place, without pdf-lib's parse of every structure element.
  const named = !options.pdfua && facts?.headings ? nameOutlineInPlace(pdf, facts.headings) : undefined;
  if (named) return named;
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  if (facts?.headings) nameOutline(lib, doc, facts.headings);
  if (options.pdfua) makePdfUa(lib, doc, pdf, facts ?? {});
  return savePlain(doc);
}

/** A tagged PDF with its structure tree in object streams; an untagged one as it is. */
export function compactTags(pdf: Buffer, options: AccessibilityOptions): Buffer {
  return printAccessibility(options).tagged ? packObjectStreams(pdf) : pdf;
}
