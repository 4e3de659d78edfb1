/**
 * The one place that calls Chromium's print: page setup in points turned into Puppeteer's
 * options, backgrounds printed, untagged by default (tagging costs ~40% time and 4x bytes).
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
  // Chromium takes the paper upright and turns it with `landscape`; a wide width/height pair
  // alone comes out portrait.
  const landscape = widthPt > heightPt;
  const bytes = await page.pdf({
    width: inches(landscape ? heightPt : widthPt),
    height: inches(landscape ? widthPt : heightPt),
    landscape,
    preferCSSPageSize: options.setup.preferCssPageSize,
    printBackground: true,
    tagged: options.tagged ?? false,
    outline: false,
    timeout: options.timeoutMs,
  });
  return Buffer.from(bytes);
}
