/**
 * What the Node side and the page agree on: the origin the artifact is served from (never a
 * real host: `.invalid` cannot resolve, and every request to it is answered from memory by
 * request interception) and the shape of a render's outcome.
 */
export const TEMPLATE_ORIGIN = 'https://template.imprint.invalid';
export const ARTIFACT_SCRIPT_PATH = '/__imprint/artifact.js';
export const ARTIFACT_STYLE_PATH = '/__imprint/artifact.css';

export interface PageRenderError {
  message: string;
  stack?: string;
  componentStack?: string;
}

export type PageRenderOutcome =
  | {
      ok: true;
      usedPreviewProps: boolean;
      cssPageSize?: string;
      failedImages: string[];
      /** The template's `metadata` static, resolved for these props (a function is called with them). */
      metadata?: unknown;
      /** The template's `stamp` static, resolved the same way (core/pdf/stamp-options.ts reads it). */
      stamp?: unknown;
    }
  | { ok: false; reason: 'no-props' | 'props-not-object' | 'threw'; error?: PageRenderError };

/** The template's `einvoice` static called with the props, before any render: its model as JSON, checked by Node. */
export type PageEInvoiceOutcome =
  | { ok: true; usedPreviewProps: boolean; model: unknown }
  | { ok: false; reason: 'no-props' | 'props-not-object' | 'threw' | 'no-einvoice'; error?: PageRenderError };

/**
 * What the caller of a render may hand the runtime. `screen(false)` skips the document for the
 * screen (the print is untouched), `screen(true)` shows it again: the runtime hides it once the
 * new document has been laid out, so a frame that comes while the render settles paints
 * nothing, and shows it whenever the template may still change or wait on frames.
 */
export interface PageRenderHooks {
  screen?(shown: boolean): void;
}

export interface ImprintPageApi {
  render(props: unknown, hooks?: PageRenderHooks): Promise<PageRenderOutcome>;
  /** Optional: artifacts built before e-invoices existed lack it. */
  einvoice?(props: unknown): PageEInvoiceOutcome;
  /**
   * Unmounts the previous render, so a warm page can be checked for leftovers before the next.
   * Optional: artifacts published before it existed lack it (render() unmounts by itself).
   */
  reset?(): void;
  /** Optional, like reset: what a check reports after a render. */
  inspect?(): PageInspection;
  /**
   * Whether the template waits on frames (frame callbacks pending, observers observing: see
   * frame-demand.ts), so a frame may still change what it shows. Optional, like reset.
   */
  framesWanted?(): boolean;
}

/**
 * The page's `window` as a function sent into it from Node (page.evaluate) sees Imprint's part
 * of it: Node code is checked without the DOM, so it declares this much of it, and no more.
 */
export interface ImprintPageWindow {
  __imprint: ImprintPageApi;
}

/** After a render: what `imprint check` and `imprint dev` report beyond the PDF. */
export interface PageInspection {
  /** The template's PreviewProps as JSON, for checking them against its props schema. */
  previewProps?: unknown;
  /** Why the PreviewProps are not JSON (a BigInt, a cycle): props from a request could never look like them. */
  previewPropsError?: string;
  /** @font-face rules whose file failed to load or decode ("Lora 700 normal"). */
  failedFonts: string[];
}
