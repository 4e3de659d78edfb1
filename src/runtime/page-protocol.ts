/**
 * What the Node side and the page agree on: the origin the artifact is served from (never a
 * real host: `.invalid` cannot resolve, and every request to it is answered from memory by
 * request interception) and the shape of a render's outcome.
 */
export const TEMPLATE_ORIGIN = 'https://template.imprint.invalid';
export const ARTIFACT_SCRIPT_PATH = '/__imprint/artifact.js';
export const ARTIFACT_STYLE_PATH = '/__imprint/artifact.css';

/**
 * A `<Field>` (imprint/react) draws its box as a link to this origin plus its own id: Chromium
 * prints every visible link as a /Link annotation at the place and on the page the box landed
 * on, so the form step (core/pdf/forms) finds each field's rectangle in the PDF itself, whatever
 * the pagination did. Never a real host (`.invalid`), never followed.
 */
export const FIELD_LINK_ORIGIN = 'https://field.imprint.invalid/';
/** The attribute holding a field's description (JSON) on its box, read by the runtime after a render. */
export const FIELD_SPEC_ATTRIBUTE = 'data-imprint-field';

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
      /** The `<Field>`s the document shows, as their boxes describe them (runtime/form-fields.ts). */
      fields?: unknown[];
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

/**
 * Page numbers Chromium cannot print by itself (a table of contents, "see page N", a section's
 * own page count: CSS `target-counter()` is not implemented). `imprint/react`'s components mark
 * each target they need with a link, `<a href="#id" data-imprint-page-ref="id">` (a hidden one
 * where nothing should be clicked): Chromium writes a named destination for the target of every
 * such link, printed or not, so the Node side reads on which page each target landed from the
 * PDF and renders again with the numbers in this global, until they stop moving
 * (core/render/page-number-passes.ts). A template without such links prints once.
 */
export const PAGE_NUMBERS_GLOBAL = '__imprintPageNumbers';
/** On every link to a target whose page is wanted; its value is the target's id. */
export const PAGE_REF_ATTRIBUTE = 'data-imprint-page-ref';
/** Also on the links of `<Section>` starts: those targets open the sections, in document order. */
export const PAGE_SECTION_ATTRIBUTE = 'data-imprint-section';

/** What the components read, as `window[PAGE_NUMBERS_GLOBAL]`: absent until the first print. */
export interface PageNumbers {
  /** The number of pages of the document. */
  pages: number;
  /** The page (from 1) each target landed on, by id. */
  targets: Record<string, number>;
  /** The ids of the sections' starts, in document order. */
  sections: string[];
}

/** The targets a render's document asks pages for, in document order; what the helper reports after a render. */
export interface PageRefs {
  ids: string[];
  /**
   * The name Chromium gives each target's destination: the link's fragment as a URL writes it
   * (`a.hash`), so `résumé x` is `r%C3%A9sum%C3%A9%20x`.
   */
  destinations: Record<string, string>;
  sections: string[];
  /** The text of each target, for naming it in an error. */
  labels: Record<string, string>;
}
