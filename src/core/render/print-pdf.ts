/**
 * The one place that calls Chromium's print: backgrounds printed, untagged by default
 * (tagging costs ~40% time and 4x bytes).
 *
 * Page size: when the request names one, it is imposed with an `@page { size: ... !important }`
 * rule added last to the page. Chromium's paper-size options alone do not do it: a template
 * that declares its own `@page size` keeps that orientation whatever the paper says, and
 * even `@page :first` rules win. The injected rule beats all of them.
 */
import type { Page } from 'puppeteer-core';
import type { PageSetup } from '../page-size.js';

export interface PrintOptions {
  setup: PageSetup;
  tagged?: boolean;
  timeoutMs: number;
}

const inches = (points: number) => `${(points / 72).toFixed(6)}in`;

export async function printPdf(page: Page, options: PrintOptions): Promise<Buffer> {
  const { widthPt, heightPt } = options.setup.size;
  if (!options.setup.preferCssPageSize) {
    await page.addStyleTag({ content: `@page { size: ${widthPt.toFixed(3)}pt ${heightPt.toFixed(3)}pt !important; }` });
  }
  const bytes = await page.pdf({
    // The paper for pages whose CSS names no size.
    width: inches(widthPt),
    height: inches(heightPt),
    preferCSSPageSize: true,
    printBackground: true,
    tagged: options.tagged ?? false,
    outline: false,
    timeout: options.timeoutMs,
  });
  return Buffer.from(bytes);
}
