/**
 * `generate`: raw HTML, a web page, or HTML injected into a web page (api.md A2). With both,
 * the page at `url` is loaded first and its document replaced by `html` with
 * document.open/write, which keeps the document's URL, so relative links in the HTML
 * resolve against `url`. Each render gets a browser context of its own: a web page's cookies
 * and storage never reach the next one.
 */
import { printAccessibility } from '../pdf/accessibility-options.js';
import { FLAT_ROW_SIBLINGS, GROUP_FLAT_ROWS } from './flat-rows.js';
import type { Page } from 'puppeteer-core';
import { ImprintError } from '../errors.js';
import { fitsPdfPage, parseCssPageSize, SIDE_RANGE_HELP } from '../page-size.js';
import { disarmPageScripts } from './disarm-page.js';
import type { BrowserPool } from './pool.js';
import { printPage, type PrintedPage } from './print-pdf.js';
import type { SpoolPolicy } from '../spool/spool-policy.js';
import type { PrintRequest } from './render-types.js';

/**
 * What the functions below touch of the page, where they run (page.evaluate): this file is Node
 * code, checked without the DOM, so it declares this much of the page's globals.
 */
declare const document: {
  fonts: { ready: Promise<unknown> };
  images: ArrayLike<{ decode(): Promise<void> }>;
  styleSheets: ArrayLike<{ cssRules: ArrayLike<object> }>;
};
declare const CSSPageRule: new () => { style: { getPropertyValue(name: string): string } };

export interface HtmlSource {
  html?: string;
  url?: string;
}

/**
 * 'load' covers the document's own images, styles and frames; a short quiet spell after it
 * catches what scripts fetch late, without the fixed half second of networkidle0.
 */
const QUIET_MS = 100;

async function settle(page: Page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)));
  });
}

async function load(page: Page, source: HtmlSource, timeoutMs: number) {
  if (source.url) {
    let response;
    try {
      response = await page.goto(source.url, { waitUntil: 'load', timeout: timeoutMs });
    } catch (error) {
      throw new ImprintError('RENDER_FAILED', `Could not load ${source.url}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    if (response && !response.ok() && !source.html) {
      throw new ImprintError('RENDER_FAILED', `${source.url} answered HTTP ${response.status()}; nothing was rendered.`);
    }
  }
  if (source.html !== undefined) await page.setContent(source.html, { waitUntil: 'load', timeout: timeoutMs });
  await page.waitForNetworkIdle({ idleTime: QUIET_MS, timeout: timeoutMs });
}

/**
 * With no size in the request the page's own `@page { size }` is printed, and Chromium's
 * printer fails on one past a PDF page's limits ("Printing failed"): refused before printing,
 * naming the field whose page asked for it, as a size in the request would be.
 */
async function checkCssPageSizes(page: Page, field: 'html' | 'url'): Promise<void> {
  const sizes = await page.evaluate(() =>
    Array.from(document.styleSheets).flatMap((sheet) => {
      try {
        return Array.from(sheet.cssRules).flatMap((rule) => (rule instanceof CSSPageRule ? [rule.style.getPropertyValue('size')] : []));
      } catch {
        return []; // a cross-origin sheet cannot be read
      }
    }),
  );
  for (const size of sizes) {
    const parsed = size ? parseCssPageSize(size)?.size : undefined;
    if (parsed && !fitsPdfPage(parsed)) {
      throw new ImprintError('INVALID_INPUT', `Invalid ${field}: its CSS asks for @page { size: ${size.slice(0, 60)} }, and ${SIDE_RANGE_HELP}. Change the rule, or give "size" in the request (it wins).`);
    }
  }
}

/** `spool`: when the print goes to a file (spool/spool-policy.ts); none keeps it in memory. */
export async function renderHtml(pool: BrowserPool, isolationKey: string, source: HtmlSource, request: PrintRequest, timeoutMs: number, signal?: AbortSignal, spool?: SpoolPolicy): Promise<PrintedPage> {
  if (source.html === undefined && !source.url) {
    throw new ImprintError('USAGE', 'Nothing to render: give --html <file|-> and/or --url <address>.');
  }
  return pool.withFreshContext({ isolationKey, timeoutMs, signal, what: `Rendering ${source.url ?? 'the HTML'}` }, async (context) => {
    const page = await context.newPage();
    await disarmPageScripts(page);
    // The page size is imposed with an injected style rule; a page's CSP must not refuse it.
    await page.setBypassCSP(true);
    await load(page, source, timeoutMs);
    await settle(page);
    // With no size asked the page's own @page size is printed: refused here if no PDF page can hold it.
    if (request.size === undefined) await checkCssPageSizes(page, source.html === undefined ? 'url' : 'html');
    // A tagged print groups flat rows first (flat-rows.ts); the page is this render's alone.
    if (printAccessibility(request).tagged) await page.evaluate(`${GROUP_FLAT_ROWS}(${FLAT_ROW_SIBLINGS}).length`);
    return printPage(page, await page.createCDPSession(), request, undefined, undefined, spool);
  });
}
