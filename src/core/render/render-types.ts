/**
 * The shapes of a template render: what a request asks of the page and what it returns. The work
 * itself is the pool's (pool.ts): a warm page holding the artifact (template-page.ts) is
 * rendered again with the new props and printed.
 */
import type { RenderOptions } from '../render-request.js';

/** The page part of RenderOptions, as the flag or the request body gave it: the print step reads it. */
/** How the page is printed: its size, orientation, and whether the PDF is tagged. */
export type PrintRequest = Pick<RenderOptions, 'size' | 'orientation' | 'tagged'>;

export interface RenderedDocument {
  pdf: Buffer;
  usedPreviewProps: boolean;
  /** The template's `metadata` static as the page resolved it (untrusted: core/pdf/finish-pdf.ts reads it). */
  metadata?: unknown;
}
