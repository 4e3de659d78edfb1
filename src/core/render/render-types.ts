/**
 * The shapes of a template render: what a request asks of the page and what it returns. The work
 * itself is the pool's (pool.ts): a warm page holding the artifact (template-page.ts) is
 * rendered again with the new props and printed.
 */
import type { RenderOptions } from '../render-request.js';

/** How the page is printed: its size, orientation, and whether the PDF is tagged. */
export type PrintRequest = Pick<RenderOptions, 'size' | 'orientation' | 'tagged'>;

/** `Invoice`: what the job's e-invoice check returned (EInvoiceCheck); never, for a render without one. */
export interface RenderedDocument<Invoice = never> {
  pdf: Buffer;
  usedPreviewProps: boolean;
  /** The template's `metadata` static as the page resolved it (untrusted: core/pdf/finish-pdf.ts reads it). */
  metadata?: unknown;
  /** The template's `<Field>`s as the page described them (untrusted: core/pdf/forms reads them). */
  fields?: unknown[];
  /** The checked e-invoice, when the job carried a check. */
  einvoice?: Invoice;
}

/**
 * A render that carries an e-invoice: the page computes the template's `einvoice` model first
 * and the check judges it (untrusted: core/einvoice checks it) before anything is drawn or
 * printed, throwing (or rejecting) to stop the render. What it returns (or resolves to) is the
 * render's `einvoice`.
 */
export type EInvoiceCheck<Invoice> = (model: unknown) => Invoice | Promise<Invoice>;

/** The e-invoice alone, nothing rendered or printed (`imprint einvoice`, XML alone). */
export interface CheckedEInvoice<Invoice> {
  einvoice: Invoice;
  usedPreviewProps: boolean;
}
