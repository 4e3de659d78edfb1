/**
 * 2. The naive loop many projects start with: for every document launch Chromium, open a
 * page, load the template, render, page.pdf() with Puppeteer's defaults (tagged), close.
 */
import type { Artifact } from '../../src/core/artifact.js';
import { openTemplatePage, renderOnTemplatePage } from '../../src/core/render/template-page.js';
import { startChromium } from '../lib/browser.js';
import { invoiceProps } from '../lib/invoice.js';
import type { Measured } from '../lib/stats.js';

export async function naive(artifact: Artifact, docs: number): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  for (let n = 0; n < docs; n++) {
    const t = performance.now();
    const browser = await startChromium();
    try {
      const page = await openTemplatePage(await browser.newPage(), artifact, 30_000);
      const rendered = await renderOnTemplatePage(page, invoiceProps(n), {});
      if (rendered === 'dirty') throw new Error('a fresh page reported dirty');
      await page.page.pdf({ format: 'A4', printBackground: true });
    } finally {
      await browser.close();
    }
    latencies.push(performance.now() - t);
  }
  return { name: '2 naive: launch/render/close each', docs, wallMs: performance.now() - started, latenciesMs: latencies, concurrency: 1 };
}
