/**
 * The dashboard's page: the browser wing's built app (app.js, app.css, scripts/build-web.js),
 * found through the build's manifest (src/core/web-assets.ts) and served under /dashboard/assets/.
 */
import type { WebAssets } from '../../core/web-assets.js';

/** The one HTML page: the app fills it. Nothing in it comes from a request or the store. */
export function dashboardPage(assets: WebAssets): string {
  const asset = (logical: string) => `/dashboard/assets/${assets.fileName(logical)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Imprint dashboard</title>
<meta name="imprint-pdf-worker" content="${asset('pdf.worker.mjs')}">
<link rel="stylesheet" href="${asset('app.css')}">
</head><body><div id="app"></div><noscript>The Imprint dashboard needs JavaScript.</noscript>
<script type="module" src="${asset('app.js')}"></script></body></html>`;
}
