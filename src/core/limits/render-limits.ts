/**
 * The limits a render is held to, beyond the render deadline (which the pool keeps): how deep
 * props may nest, and how many pages and bytes a printed document may have. The service sets
 * all three (defaults below, each configurable on `imprint serve`); the CLI's embedded mode
 * renders the user's own documents on the user's own machine and sets none.
 */
export interface RenderLimits {
  /** Levels of nesting in a request's props (objects and arrays); deeper is refused with 400. */
  maxPropsDepth: number;
  /** Pages in one document; more is refused with 422. */
  maxPages: number;
  /** Bytes of one PDF; more is refused with 422. */
  maxPdfBytes: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = {
  // Real documents nest a handful of levels (invoice > lines > line > price); 32 leaves room
  // for generated data while keeping every recursive step after it (schema validation, the
  // structured clone into the page, React) far from a stack overflow.
  maxPropsDepth: 32,
  maxPages: 1000,
  maxPdfBytes: 100 * 1024 * 1024,
};

/**
 * The `imprint serve` flag behind each limit (cli/serve-settings.ts defines them with these
 * names). A refusal names its flag: the caller who meets the limit is rarely the operator who
 * set it, and the message is what they can forward.
 */
export const RENDER_LIMIT_FLAGS: Record<keyof RenderLimits, string> = {
  maxPropsDepth: '--max-props-depth',
  maxPages: '--max-pages',
  maxPdfBytes: '--max-pdf-size',
};

/** The end of a refusal by `limit`: the other way out, asking the operator to raise it. */
export const raiseLimitAdvice = (limit: keyof RenderLimits) => `or ask the service's operator to raise the limit (\`imprint serve ${RENDER_LIMIT_FLAGS[limit]}\`).`;

/** No limit at all: what the embedded CLI passes. */
export const NO_RENDER_LIMITS: RenderLimits = {
  maxPropsDepth: Number.POSITIVE_INFINITY,
  maxPages: Number.POSITIVE_INFINITY,
  maxPdfBytes: Number.POSITIVE_INFINITY,
};
