/** The HTML of the studio and of its HTML view (an iframe holding the template's artifact). */

import type { WebAssets } from '../../core/web-assets.js';

/**
 * Names this run of `imprint dev` in the URLs of the template's artifact, so the browser may
 * keep it without ever keeping one across a restart, when the same URL may mean other bytes.
 * The studio's own files need none: their names change with their bytes (scripts/build-web.js).
 */
export const RUN_ID = `${process.pid.toString(36)}${Date.now().toString(36)}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The browser wing's files under /studio/ (studio-routes.ts serves them). */
const studioUrl = (assets: WebAssets, logical: string) => `/studio/${assets.fileName(logical)}`;

export const studioPage = (assets: WebAssets) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>imprint dev</title><meta name="imprint-pdf-worker" content="${studioUrl(assets, 'pdf.worker.mjs')}"><link rel="stylesheet" href="${studioUrl(assets, 'studio.css')}"></head><body><div id="studio"></div><script type="module" src="${studioUrl(assets, 'studio.js')}"></script></body></html>`;

/**
 * The template renders into #root, out of sight but laid out (so its fonts and images load
 * as in print); Paged.js lays a copy out in page boxes in #pages, the part shown.
 */
const FRAME_STYLE = `
  html { background: #e3e7ec; }
  body { margin: 0; }
  #root { position: absolute; top: 0; left: 0; width: 210mm; height: 0; overflow: hidden; visibility: hidden; }
  #pages .pagedjs_page { background: #fff; margin: 16px auto; box-shadow: 0 1px 6px rgba(0,0,0,.25); }
`;

export function previewFramePage(title: string, version: number, assets: WebAssets): string {
  const v = `?v=${version}&run=${RUN_ID}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="artifact.css${v}" data-artifact><style data-pagedjs-ignore>${FRAME_STYLE}</style></head>
<body><div id="root"></div><div id="pages"></div>
<script src="${studioUrl(assets, 'paged.js')}"></script><script src="artifact.js${v}"></script><script src="${studioUrl(assets, 'frame.js')}"></script></body></html>`;
}

/**
 * The HTML view runs the author's template: like a print, it may reach nothing but this server
 * (its own artifact and static files). Inside that, nothing is narrowed (inline styles, eval),
 * so a template behaves here as it does in the print, where no policy applies.
 */
export const PREVIEW_FRAME_CSP = "default-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'";
