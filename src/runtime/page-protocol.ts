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
  | { ok: true; usedPreviewProps: boolean; cssPageSize?: string; failedImages: string[] }
  | { ok: false; reason: 'no-props' | 'props-not-object' | 'threw'; error?: PageRenderError };

export interface ImprintPageApi {
  render(props: unknown): Promise<PageRenderOutcome>;
}
