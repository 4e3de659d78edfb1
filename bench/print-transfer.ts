/**
 * `npx tsx bench/print-transfer.ts [rounds] [--pages N]` (issue 40): how the PDF should come back
 * from `Page.printToPDF`. One Chromium, two template pages rendered once each (the example
 * invoice, 2 pages; the big report, N pages, default 2,000), then printed again and again,
 * alternating: the PDF as one base64 string in the answer (`ReturnAsBase64`, what print-pdf.ts
 * did), the same after one `Page.getLayoutMetrics` (how print-pdf.ts tells a big document), and
 * a protocol stream read with `IO.read` at several chunk sizes. Medians of the
 * print as Node sees it (the call sent to the last byte in a Buffer), and for the big report the
 * growth of this process's resident memory over one print of each kind. Not a test.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession } from 'puppeteer-core';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { openTemplatePage, renderOnTemplatePage, type TemplatePage } from '../src/core/render/template-page.js';
import { readProtocolStream } from '../src/core/render/protocol-stream.js';
import { startChromium } from './lib/browser.js';
import { bigReportProject, ROWS_PER_PAGE } from './lib/big-report.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';
import { percentile } from './lib/stats.js';

const args = process.argv.slice(2);
const pagesAt = args.indexOf('--pages');
const bigPages = pagesAt >= 0 ? Number(args[pagesAt + 1]) : 2000;
const rounds = Number(args.find((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--pages') ?? 15);

const PRINT = { printBackground: true, preferCSSPageSize: true, marginTop: 0, marginBottom: 0, marginLeft: 0, marginRight: 0 };

type Way = { name: string; print: (cdp: CDPSession) => Promise<Buffer> };
const ways: Way[] = [
  { name: 'base64, one answer', print: async (cdp) => Buffer.from((await cdp.send('Page.printToPDF', PRINT)).data, 'base64') },
  {
    name: 'layout asked, base64',
    print: async (cdp) => {
      await cdp.send('Page.getLayoutMetrics'); // what print-pdf.ts asks to tell a big document from a small one
      return Buffer.from((await cdp.send('Page.printToPDF', PRINT)).data, 'base64');
    },
  },
  ...[64 << 10, 1 << 20, 8 << 20].map((size) => ({
    name: `stream, ${size >> 10} KiB reads`,
    print: async (cdp: CDPSession) => {
      const { stream } = await cdp.send('Page.printToPDF', { ...PRINT, transferMode: 'ReturnAsStream' });
      const chunks: Buffer[] = [];
      for await (const chunk of readProtocolStream(cdp, stream!, size)) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
  })),
];

async function rendered(browser: Awaited<ReturnType<typeof startChromium>>, template: string, props: unknown): Promise<TemplatePage> {
  const { artifact } = await bundleTemplate(template);
  const page = await openTemplatePage(await browser.newPage(), artifact, 600_000);
  if ((await renderOnTemplatePage(page, props, {})) === 'dirty') throw new Error('a fresh page reported dirty');
  return page;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-print-transfer-'));
const browser = await startChromium();
try {
  console.log(`machine: ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const invoice = await rendered(browser, INVOICE, invoiceProps(1));
  const times = new Map(ways.map((way) => [way.name, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    for (const way of round % 2 ? [...ways].reverse() : ways) {
      const started = performance.now();
      await way.print(invoice.cdp);
      times.get(way.name)!.push(performance.now() - started);
    }
  }
  const base = percentile(times.get(ways[0].name)!, 50);
  console.log(`invoice (2 pages), ${rounds} rounds, medians:`);
  for (const way of ways) {
    const median = percentile(times.get(way.name)!, 50);
    console.log(`  ${way.name.padEnd(22)} ${median.toFixed(1).padStart(7)} ms  ${(median / base).toFixed(2)} x`);
  }

  const big = await rendered(browser, bigReportProject(path.join(work, 'big')), { rows: bigPages * ROWS_PER_PAGE });
  console.log(`big report (${bigPages * ROWS_PER_PAGE} rows), one print each:`);
  for (const way of ways) {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const pdf = await way.print(big.cdp);
    const ms = performance.now() - started;
    clearInterval(watch);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(`  ${way.name.padEnd(22)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${(pdf.length / 2 ** 20).toFixed(1)} MiB PDF  Node RSS +${((peak - before) / 2 ** 20).toFixed(0)} MiB at its peak`);
  }
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
