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
  /** The template's `einvoice` model, when the job asked for it (untrusted: core/einvoice checks it). */
  einvoice?: unknown;
}

/**
 * A render that carries an e-invoice: the page computes the template's `einvoice` model first,
 * `check` judges it (and throws to stop the render before anything is drawn or printed), and
 * with `modelOnly` nothing is rendered at all (`imprint einvoice`, XML alone).
 */
export interface EInvoiceRequest {
  check(model: unknown): void;
  modelOnly?: boolean;
}
