/**
 * 1. The floor: Chromium's print alone. Each of `concurrency` pages holds the invoice, already
 * rendered with its page size imposed (the render call does that, template-page.ts); the timed
 * loop only runs the print step on it (Page.printToPDF, tagged as the run asks: lib/tagging.ts), as the pool prints.
 */
import type { Artifact } from '../../src/core/artifact.js';
import { plannedPageSetup, printPage } from '../../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage } from '../../src/core/render/template-page.js';
import { startChromium } from '../lib/browser.js';
import { invoiceProps } from '../lib/invoice.js';
import type { Measured } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

export async function floor(artifact: Artifact, docs: number, concurrency: number, name = '1 floor: printToPDF only'): Promise<Measured> {
  const browser = await startChromium();
  try {
    const pages = await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        const context = await browser.createBrowserContext();
        const page = await openTemplatePage(await context.newPage(), artifact, 30_000);
        const rendered = await renderOnTemplatePage(page, invoiceProps(i), tagging.request);
        if (rendered === 'dirty') throw new Error('a fresh page reported dirty');
        return page;
      }),
    );
    // The setup the render imposed (the request names no size): printed as the pool prints it.
    const imposed = plannedPageSetup({});
    // Warm the print path once per page.
    for (const page of pages) checkUntagged((await printPage(page.page, page.cdp, tagging.request, imposed)).pdf, name);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      pages.map(async (page) => {
        while (next++ < docs) {
          const t = performance.now();
          await printPage(page.page, page.cdp, tagging.request, imposed);
          latencies.push(performance.now() - t);
        }
      }),
    );
    return { name, docs, wallMs: performance.now() - started, latenciesMs: latencies, concurrency };
  } finally {
    await browser.close();
  }
}
