/**
 * The studio's front-end (src/cli/dev/studio/), built with the CLI (scripts/browser-assets.js)
 * into dist/browser/studio: studio.js/.css, frame.js, Paged.js's browser build (paged.js) and
 * pdf.js's worker (pdf.worker.mjs). Read once per process.
 */
import { readBrowserAssets, type BrowserAsset } from '../../core/browser-assets.js';

export interface StudioAssets {
  /** By file name under /studio/: studio.js, studio.css, frame.js, paged.js, pdf.worker.mjs. */
  files: Map<string, BrowserAsset>;
}

let read: Promise<StudioAssets> | undefined;

export function studioAssets(): Promise<StudioAssets> {
  read ??= Promise.resolve().then(() => ({ files: readBrowserAssets('studio') }));
  return read;
}
