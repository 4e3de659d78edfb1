/**
 * `npx tsx bench/batch-bounds.ts [docs] [rounds]`: how close to the floor any batch of distinct
 * documents can come on this machine, measured, so that the batch's ratio against the floor
 * (issue 24: >= 0.85 x) can be read against what is reachable at all. Not a test.
 *
 * In one process, on one browser with two warm template pages (the batch's concurrency), three
 * kinds of pass alternate for `rounds` rounds of `docs` documents, each timed with the CPU of
 * the browser's process tree (reaped print compositors included) and of Node:
 *
 *   print   the floor: the page already holds a rendered invoice and is printed again as it stands
 *   html    the least any renderer of distinct documents can do: #root's innerHTML set to another
 *           invoice, rendered beforehand and kept as HTML (no script runs, no screen layout: the
 *           page's body is skipped for the screen between renders), then the print
 *   react   Imprint's render in the page (React, settle's waits) and the print, as the pool does
 *
 * Then the CLI as the bench runs it (`imprint render invoice --embedded --batch`) at two sizes,
 * alternated: the difference gives the batch's steady cost per row, the rest is its fixed cost
 * (Node's and Chromium's start, two template pages, the first renders on a cold JIT, the exit).
 *
 * Last, the bound: with the measured fixed cost, the ratio to the floor a batch of N rows would
 * reach if each row cost only the print (a render that costs nothing) or the print plus the
 * `html` pass: 1 / (1 + fixed x rate / N) times the row's own ratio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeArtifact } from '../src/core/artifact.js';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { plannedPageSetup, printPage } from '../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage, type TemplatePage } from '../src/core/render/template-page.js';
import { openStore } from '../src/core/store/index.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';
import { cpuPass, median, range } from './lib/cpu-pass.js';
import { batch } from './scenarios/batch.js';

/** What the function sent into the page below touches there (the bench is Node code: no DOM). */
declare const document: { getElementById(id: string): { innerHTML: string } | null };

const docs = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 3);
const concurrency = 2;
/** The two batch sizes whose difference is the steady cost of a row. */
const SMALL = 10;
const LARGE = 210;
/** Distinct invoices kept as HTML for the `html` pass. */
const HTML_DOCUMENTS = 40;

type Kind = 'print' | 'html' | 'react';
const say = (line = '') => process.stdout.write(`${line}\n`);

const { artifact } = await bundleTemplate(INVOICE);
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
const inProcess: Record<Kind, { rate: number; cpuMs: number }[]> = { print: [], html: [], react: [] };
try {
  const pages: TemplatePage[] = [];
  for (let i = 0; i < concurrency; i++) {
    const context = await launched.browser.createBrowserContext();
    pages.push(await openTemplatePage(await context.newPage(), artifact, 30_000));
  }
  // Distinct invoices as the template renders them, taken from the page after a render.
  const html: string[] = [];
  for (let i = 0; i < HTML_DOCUMENTS; i++) {
    if ((await renderOnTemplatePage(pages[0], invoiceProps(i), {})) === 'dirty') throw new Error('a fresh page reported dirty');
    html.push(await pages[0].page.evaluate(() => document.getElementById('root')!.innerHTML));
  }
  await renderOnTemplatePage(pages[1], invoiceProps(0), {});
  const setup = plannedPageSetup({});
  let n = 0;
  const one = async (page: TemplatePage, kind: Kind) => {
    const i = n++;
    if (kind === 'react') {
      if ((await renderOnTemplatePage(page, invoiceProps(i), {})) === 'dirty') throw new Error('dirty page');
      return;
    }
    if (kind === 'html') {
      const expression = `document.getElementById('root').innerHTML = ${JSON.stringify(html[i % html.length])}; 0`;
      await page.cdp.send('Runtime.evaluate', { expression });
    }
    await printPage(page.page, page.cdp, {}, setup);
  };
  const pass = async (kind: Kind) => {
    const figures = await cpuPass(launched.pid!, pages, docs, (page) => one(page, kind));
    return { rate: figures.rate, cpuMs: figures.chromiumMs + figures.nodeMs };
  };
  const kinds: Kind[] = ['print', 'html', 'react'];
  for (const kind of kinds) await pass(kind); // warm every path
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) inProcess[kind].push(await pass(kind));
  }
} finally {
  await launched.kill();
}

// The CLI's batch at two sizes, alternated.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bounds-'));
const walls: Record<number, number[]> = { [SMALL]: [], [LARGE]: [] };
try {
  const dataDir = path.join(work, 'data');
  const store = openStore({ dataDir });
  await store.publishTemplate((await store.ensureTeam('local')).id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  await store.close();
  for (let round = 0; round < rounds; round++) {
    for (const size of round % 2 === 0 ? [SMALL, LARGE] : [LARGE, SMALL]) walls[size].push(batch(dataDir, work, size, concurrency).wallMs);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

say(`${docs} documents a pass, ${rounds} rounds, concurrency ${concurrency}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
say();
say('in process, two warm pages     docs/s (median, range)     CPU ms/doc, all processes');
const floorRate = median(inProcess.print.map((p) => p.rate));
for (const kind of ['print', 'html', 'react'] as Kind[]) {
  const rates = inProcess[kind].map((p) => p.rate);
  const cpu = inProcess[kind].map((p) => p.cpuMs);
  say(`  ${kind.padEnd(28)} ${`${median(rates).toFixed(1)} (${range(rates)})`.padEnd(26)} ${median(cpu).toFixed(1)} (${range(cpu)})   ${(median(rates) / floorRate).toFixed(2)} x the floor`);
}
const steadyMs = (median(walls[LARGE]) - median(walls[SMALL])) / (LARGE - SMALL);
const fixedMs = median(walls[SMALL]) - SMALL * steadyMs;
say();
say(`the CLI's batch: ${SMALL} rows ${range(walls[SMALL], 0)} ms, ${LARGE} rows ${range(walls[LARGE], 0)} ms`);
say(`  steady: ${steadyMs.toFixed(2)} ms a row = ${(1000 / steadyMs).toFixed(1)} docs/s = ${(1000 / steadyMs / floorRate).toFixed(2)} x the floor; fixed: ${fixedMs.toFixed(0)} ms`);
say();
say('best ratio to the floor a batch of N rows can reach with this fixed cost, if each row cost');
const htmlRate = median(inProcess.html.map((p) => p.rate));
const bound = (rowRate: number, rows: number) => rows / (fixedMs / 1000 + rows / rowRate) / floorRate;
say(`  ${'rows'.padStart(6)}   only the print   the print + the html pass   the CLI as measured`);
for (const rows of [200, 300, 1000]) {
  say(`  ${String(rows).padStart(6)}   ${bound(floorRate, rows).toFixed(2).padStart(14)}   ${bound(htmlRate, rows).toFixed(2).padStart(25)}   ${bound(1000 / steadyMs, rows).toFixed(2).padStart(19)}`);
}
