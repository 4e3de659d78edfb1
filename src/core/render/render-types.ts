/**
 * The shapes of a template render: what a request asks of the page and what it returns. The work
 * itself is the pool's (pool.ts): a warm page holding the artifact (template-page.ts) is
 * rendered again with the new props and printed.
 */
import type { Orientation, PageDimensions } from '../page-size.js';

export interface PageRequest {
  size?: PageDimensions;
  orientation?: Orientation;
  tagged?: boolean;
}

export interface RenderedDocument {
  pdf: Buffer;
  usedPreviewProps: boolean;
  /** The template's `metadata` static as the page resolved it (untrusted: core/pdf/finish-pdf.ts reads it). */
  metadata?: unknown;
}
