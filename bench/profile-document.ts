/**
 * `npx tsx bench/profile-document.ts [docs]`: where one batch document's CPU goes, in process,
 * on two warm template pages (the batch's concurrency on this machine). Four passes over the
 * same pages, each `docs` documents at concurrency 2, alternated twice so a change in the
 * machine's load meets every pass:
 *
 *   print    the print step alone on a rendered page (the floor)
 *   render   the call into the page (React unmounts the last invoice and renders the next), then the print
 *   finish   render, print, then the finishing step (finish-pdf.ts) in this process
 *   write    all that and the PDF written to a file, as the batch does
 *
 * For each: docs/s, and CPU per document in Node (process.cpuUsage) and in Chromium (every
 * process of the browser's tree, from /proc). The differences between passes are the costs
 * of each step. Not a test: it measures and prints.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { finishPdf } from '../src/core/pdf/finish-pdf.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { plannedPageSetup, printPage } from '../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage, type TemplatePage } from '../src/core/render/template-page.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';
import { cpuPass } from './lib/cpu-pass.js';

const docs = Number(process.argv[2] ?? 200);
const concurrency = 2;
type Pass = 'print' | 'render' | 'finish' | 'write';

const { artifact } = await bundleTemplate(INVOICE);
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-profile-doc-'));
try {
  const pages: TemplatePage[] = [];
  for (let i = 0; i < concurrency; i++) {
    const context = await launched.browser.createBrowserContext();
    pages.push(await openTemplatePage(await context.newPage(), artifact, 30_000));
  }
  let n = 0;
  const one = async (page: TemplatePage, pass: Pass) => {
    const i = n++;
    if (pass === 'print') return printPage(page.page, page.cdp, {}, plannedPageSetup({}));
    const rendered = await renderOnTemplatePage(page, invoiceProps(i), {});
    if (rendered === 'dirty') throw new Error('dirty page');
    if (pass === 'render') return rendered.pdf;
    const finished = await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata });
    if (pass === 'write') await fs.promises.writeFile(path.join(out, `${i % 50}.pdf`), finished);
    return finished;
  };
  const run = async (pass: Pass) => ({ pass, ...(await cpuPass(launched.pid!, pages, docs, (page) => one(page, pass))) });
  for (const page of pages) await one(page, 'write'); // warm every path once
  const results: Awaited<ReturnType<typeof run>>[] = [];
  for (let round = 0; round < 2; round++) for (const pass of ['print', 'render', 'finish', 'write'] as const) results.push(await run(pass));
  process.stdout.write(`${docs} documents per pass, concurrency ${concurrency}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  process.stdout.write('pass      docs/s   Node CPU ms/doc   Chromium CPU ms/doc   total\n');
  for (const r of results) {
    process.stdout.write(`${r.pass.padEnd(8)} ${r.rate.toFixed(1).padStart(7)}   ${r.nodeMs.toFixed(1).padStart(15)}   ${r.chromiumMs.toFixed(1).padStart(19)}   ${(r.nodeMs + r.chromiumMs).toFixed(1).padStart(5)}\n`);
  }
} finally {
  await launched.kill();
  fs.rmSync(out, { recursive: true, force: true });
}
