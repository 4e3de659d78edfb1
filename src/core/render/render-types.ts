/**
 * The shapes of a template render: what a request asks of the page and what it returns. The work
 * itself is the pool's (pool.ts): a warm page holding the artifact (template-page.ts) is
 * rendered again with the new props and printed.
 */
import type { RenderOptions } from '../render-request.js';
import type { PageFacts } from './page-facts.js';
import type { PdfBytes } from '../spool/spooled-pdf.js';

/** How the page is printed: its size, orientation, tags and bookmarks (and whether PDF/UA needs the links' text), and its images optimised. */
export type PrintRequest = Pick<RenderOptions, 'size' | 'orientation' | 'tagged' | 'outline' | 'pdfua' | 'optimizeImages'>;

/**
 * `Invoice`: what the job's e-invoice check returned (EInvoiceCheck); never, for a render without one.
 * `Pdf`: a Buffer for a render that gave no spool policy (spool/spool-policy.ts).
 */
export interface RenderedDocument<Invoice = never, Pdf extends PdfBytes = PdfBytes> {
  /** A spooled file for a print past the spool's threshold (spool/spooled-pdf.ts), else the bytes. */
  pdf: Pdf;
  usedPreviewProps: boolean;
  /** The template's `metadata` static as the page resolved it (untrusted: core/pdf/finish-pdf.ts reads it). */
  metadata?: unknown;
  /** The template's `<Field>`s as the page described them (untrusted: core/pdf/forms reads them). */
  fields?: unknown[];
  /** The template's `stamp` static as the page resolved it (untrusted: core/pdf/stamp-options.ts reads it). */
  stamp?: unknown;
  /** The checked e-invoice, when the job carried a check. */
  einvoice?: Invoice;
  /** What the accessibility step needs of the page (render/page-facts.ts). */
  facts?: PageFacts;
  /** Whether the print carries tags (render/print-pdf.ts PrintedPage.tagged). */
  tagged: boolean;
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
