/**
 * A render that also reports what went wrong without stopping it: console errors, requests
 * the artifact could not answer (a font or image missing from static/, a URL on the
 * network), fonts that failed to load. A production render prints regardless; `imprint
 * check` fails on any of these and `imprint dev` shows them. It uses a fresh page in its own
 * browser context, never a pooled one, so nothing of another render is counted.
 */
import type { Browser, ConsoleMessage, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import type { ImprintPageWindow, PageInspection } from '../../runtime/page-protocol.js';
import { ARTIFACT_SCRIPT_PATH, TEMPLATE_ORIGIN } from '../../runtime/page-protocol.js';
import { withDeadline } from '../render/deadline.js';
import type { PrintRequest, RenderedDocument } from '../render/render-types.js';
import { formatPosition, locateInTemplate } from '../render/template-stack.js';
import { openTemplatePage, renderOnTemplatePage, type BeforePrint } from '../render/template-page.js';

/** The page's window, for the function below that runs in it (this file is Node code: no DOM). */
declare const window: ImprintPageWindow;

export interface RenderDiagnostics {
  /** console.error calls and uncaught exceptions, with the template's file:line where known. */
  consoleErrors: string[];
  /** Requests that failed: "/static/logo.png: 404, not in the template's static folder". */
  failedRequests: string[];
  /** Web fonts that failed to load or decode. */
  failedFonts: string[];
  previewProps?: unknown;
  /** Why the PreviewProps could not be read as JSON, if they could not. */
  previewPropsError?: string;
}

/** The render as a pooled page reports it (a fresh page is asked for no e-invoice), and what went wrong on the way. */
export interface DiagnosedRender extends RenderedDocument<never, Buffer> {
  diagnostics: RenderDiagnostics;
  /** With `looks.afterPrint`: settles once it ran on the page. The caller must handle its rejection. */
  afterPrint?: Promise<void>;
}

/** Chromium's own line for a failed request; the request itself is reported instead. */
const NETWORK_NOISE = /^Failed to load resource/;

const shortUrl = (url: string) => (url.startsWith(TEMPLATE_ORIGIN) ? url.slice(TEMPLATE_ORIGIN.length) : url);

function consoleLocation(message: ConsoleMessage, artifact: Artifact): string {
  // Positions in the minified artifact, written as a stack line so the source map can turn them around.
  const stack = message
    .stackTrace()
    .map((frame) => `    at ${frame.url}:${(frame.lineNumber ?? 0) + 1}:${(frame.columnNumber ?? 0) + 1}`)
    .join('\n');
  const where = locateInTemplate(stack, artifact);
  return where ? ` (at ${formatPosition(where)})` : '';
}

function watch(page: Page, artifact: Artifact, diagnostics: RenderDiagnostics): void {
  // A 404 is followed by Chromium aborting the same request: one line per URL is enough.
  const answered = new Set<string>();
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' || NETWORK_NOISE.test(message.text())) return;
    diagnostics.consoleErrors.push(`${message.text()}${consoleLocation(message, artifact)}`);
  });
  page.on('pageerror', (error: unknown) => {
    const where = locateInTemplate((error as Error).stack, artifact);
    diagnostics.consoleErrors.push(`Uncaught ${(error as Error).message ?? String(error)}${where ? ` (at ${formatPosition(where)})` : ''}`);
  });
  page.on('response', (response: HTTPResponse) => {
    // Chromium asks every page for a favicon on its own; the template did not.
    if (response.status() < 400 || response.url() === `${TEMPLATE_ORIGIN}/favicon.ico`) return;
    answered.add(response.url());
    const what = response.status() === 404 ? `not in the template's static folder` : response.statusText();
    diagnostics.failedRequests.push(`${shortUrl(response.url())}: ${response.status()}, ${what}`);
  });
  page.on('requestfailed', (request: HTTPRequest) => {
    const url = request.url();
    // The shell's own script failing is a load error, reported by the render itself.
    if (url === `${TEMPLATE_ORIGIN}${ARTIFACT_SCRIPT_PATH}` || answered.has(url)) return;
    const errorText = request.failure()?.errorText ?? 'failed';
    // Refused by our request routing (reported by Chromium as ERR_BLOCKED_BY_CLIENT, sometimes with a suffix).
    const reason = errorText.startsWith('net::ERR_BLOCKED_BY_CLIENT') ? 'blocked: templates render without network access; put the file in static/' : errorText;
    diagnostics.failedRequests.push(`${shortUrl(url)}: ${reason}`);
  });
}

/** A look at the rendered page (the accessibility check runs axe-core there), given its resolved `metadata`. */
export type PageLook = BeforePrint;

export interface PageLooks {
  /** Before the print, and the render waits for it (`imprint check --a11y`). */
  beforePrint?: PageLook;
  /**
   * After the print, on the same page, while the render has returned already: `imprint dev`
   * shows the preview at once and its accessibility findings a moment later. The render's
   * `afterPrint` settles when this has run (under the same deadline); the page is closed then.
   */
  afterPrint?: PageLook;
}

export async function renderDiagnosed(browser: Browser, artifact: Artifact, props: unknown, request: PrintRequest, timeoutMs: number, looks: PageLooks = {}): Promise<DiagnosedRender> {
  const diagnostics: RenderDiagnostics = { consoleErrors: [], failedRequests: [], failedFonts: [] };
  const context = await browser.createBrowserContext();
  const close = () => context.close().catch(() => {}); // already closed by a deadline, or the browser is gone
  let page: Page | undefined;
  const work = (async () => {
    page = await context.newPage();
    watch(page, artifact, diagnostics);
    const target = await openTemplatePage(page, artifact, timeoutMs);
    const rendered = await renderOnTemplatePage(target, props, request, undefined, looks.beforePrint);
    // A fresh page has nothing of an earlier render to leave behind.
    if (rendered === 'dirty') throw new Error('A fresh page was reported dirty before its first render.');
    const inspection: PageInspection | undefined = await page.evaluate(() => window.__imprint.inspect?.());
    diagnostics.failedFonts.push(...(inspection?.failedFonts ?? []));
    diagnostics.previewProps = inspection?.previewProps;
    diagnostics.previewPropsError = inspection?.previewPropsError;
    return { ...rendered, diagnostics };
  })();
  let rendered: DiagnosedRender;
  try {
    rendered = await withDeadline(timeoutMs, `Rendering ${artifact.sourceName}`, work, () => void close());
  } catch (error) {
    await close();
    throw error;
  }
  if (!looks.afterPrint || !page) {
    await close();
    return rendered;
  }
  const afterPrint = withDeadline(timeoutMs, `Looking at ${artifact.sourceName} after its print`, looks.afterPrint(page, rendered.metadata), () => void close()).finally(close);
  // Its failure is the caller's to report when it awaits it; a caller that failed on its own meanwhile must not crash the process with it.
  afterPrint.catch(() => undefined);
  return { ...rendered, afterPrint };
}
