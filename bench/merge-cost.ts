/**
 * `npx tsx bench/merge-cost.ts [--runs N] [--pages N] [--part-pages N]`: what merging costs
 * (issue 39, docs/finishing.md "Merging"). Chromium prints a document of N pages (default 100)
 * and two parts of 5 pages each, text and headings on every page, as a render would; then the
 * merge step (core/pdf/merge/merge-pdfs.ts: the document parsed, the parts' pages copied in,
 * the outline written, the file saved) runs `--runs` times on them, and for scale Chromium's
 * print of the document is timed as many times. Prints the medians (min-max) and the ratio.
 */
import { parseArgs } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { countPdfPages } from '../src/core/limits/pdf-pages.js';
import { mergePdfs } from '../src/core/pdf/merge/merge-pdfs.js';
import { startChromium } from './lib/browser.js';
import { percentile } from './lib/stats.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, pages: { type: 'string', default: '100' }, 'part-pages': { type: 'string', default: '5' } } });
const runs = Number(values.runs);

/** `pages` A4 pages, each a heading and three paragraphs, with a title for the outline entry. */
function documentHtml(title: string, pages: number): string {
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(6);
  const page = (index: number) => `<section style="break-after: page"><h1>${title}, page ${index + 1}</h1><p>${paragraph}</p><p>${paragraph}</p><p>${paragraph}</p></section>`;
  return `<!doctype html><title>${title}</title><body>${Array.from({ length: pages }, (_, index) => page(index)).join('')}</body>`;
}

async function print(browser: Browser, html: string): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    return Buffer.from(await page.pdf({ format: 'A4', printBackground: true }));
  } finally {
    await page.close();
  }
}

const stats = (times: number[]) => `${percentile(times, 50).toFixed(1)} ms (${Math.min(...times).toFixed(1)}-${Math.max(...times).toFixed(1)})`;

const browser = await startChromium();
try {
  const mainHtml = documentHtml('Report', Number(values.pages));
  const main = await print(browser, mainHtml);
  const cover = await print(browser, documentHtml('Cover', Number(values['part-pages'])));
  const terms = await print(browser, documentHtml('Terms', Number(values['part-pages'])));

  const mergeTimes: number[] = [];
  const printTimes: number[] = [];
  let merged: Buffer = Buffer.alloc(0);
  // One untimed round first: pdf-lib's module load and a cold JIT are not the step's cost.
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    merged = await mergePdfs({ pdf: main, name: 'the rendered document' }, [{ pdf: cover, name: 'cover.pdf' }], [{ pdf: terms, name: 'terms.pdf' }]);
    const mergeMs = performance.now() - started;
    const printStarted = performance.now();
    await print(browser, mainHtml);
    const printMs = performance.now() - printStarted;
    if (run > 0) {
      mergeTimes.push(mergeMs);
      printTimes.push(printMs);
    }
  }
  const pages = [main, cover, terms, merged].map((pdf) => countPdfPages(pdf));
  console.log(`document ${pages[0]} pages (${(main.length / 1024).toFixed(0)} KiB), parts ${pages[1]} + ${pages[2]} pages; merged ${pages[3]} pages (${(merged.length / 1024).toFixed(0)} KiB); ${runs} runs, medians (min-max)`);
  console.log(`merge step (parse, copy, outline, save): ${stats(mergeTimes)}`);
  console.log(`Chromium's print of the document alone:  ${stats(printTimes)}`);
  console.log(`merge / print: ${(percentile(mergeTimes, 50) / percentile(printTimes, 50)).toFixed(2)} x`);
} finally {
  await browser.close();
}
