/**
 * `npx tsx bench/flags-ab.ts "<flag>|<flag>..." [docs] [rounds]`: the CPU of one batch
 * document (render in the page + print) in a Chromium started with extra flags (A) against one
 * started with Imprint's flags alone (B), with this checkout's page code on both. Two browsers,
 * each with two warm template pages of the invoice; passes of `docs` documents at concurrency 2
 * alternate A B B A ... for `rounds` rounds, so both meet the same machine load (the idle one
 * costs next to nothing). For each pass: CPU per document in Chromium (the browser's process
 * tree from /proc, reaped print compositors included) and in Node. Not a test: it measures and
 * prints the medians and ranges. Launch flags are judged with it, page code with profile-ab.ts.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { chromiumArgs } from '../src/core/render/launch-browser.js';
import { openTemplatePage, renderOnTemplatePage, type TemplatePage } from '../src/core/render/template-page.js';
import { cpuPass, describeAbPasses } from './lib/cpu-pass.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';

const flags = (process.argv[2] ?? '').split('|').filter(Boolean);
if (!flags.length) throw new Error('usage: npx tsx bench/flags-ab.ts "<flag>|<flag>..." [docs] [rounds]');
const docs = Number(process.argv[3] ?? 100);
const rounds = Number(process.argv[4] ?? 4);
const concurrency = 2;
const root = process.getuid?.() === 0;

const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const { artifact } = await bundleTemplate(INVOICE);

interface Side {
  name: string;
  browser: Browser;
  pid: number;
  profile: string;
  pages: TemplatePage[];
}

async function side(name: string, extra: string[]): Promise<Side> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'imprint-flags-ab-'));
  const browser = await puppeteer.launch({
    executablePath,
    ignoreDefaultArgs: true,
    args: [...chromiumArgs(root, extra), `--user-data-dir=${profile}`],
    pipe: true,
    defaultViewport: { width: 800, height: 600 },
  });
  const pages = [];
  for (let i = 0; i < concurrency; i++) {
    const context = await browser.createBrowserContext();
    pages.push(await openTemplatePage(await context.newPage(), artifact, 30_000));
  }
  return { name, browser, pid: browser.process()!.pid!, profile, pages };
}

const sides = [await side(`A (${flags.join(' ')})`, flags), await side('B (Imprint flags)', [])];
try {
  let n = 0;
  const pass = (s: Side, count: number) =>
    cpuPass(s.pid, s.pages, count, async (page) => {
      if ((await renderOnTemplatePage(page, invoiceProps(n++), {})) === 'dirty') throw new Error('dirty page');
    });
  for (const s of sides) await pass(s, 20); // warm every path
  const results: Awaited<ReturnType<typeof pass>>[][] = [[], []];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) results[i].push(await pass(sides[i], docs));
  }
  process.stdout.write(`${docs} documents a pass, ${rounds} rounds, concurrency ${concurrency}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  for (const line of describeAbPasses(sides.map((s) => s.name), results, 40)) process.stdout.write(`${line}\n`);
  process.stdout.write(`docs/s per pass, A: ${results[0].map((x) => x.rate.toFixed(1)).join(' ')}\n`);
  process.stdout.write(`docs/s per pass, B: ${results[1].map((x) => x.rate.toFixed(1)).join(' ')}\n`);
} finally {
  for (const s of sides) {
    await s.browser.close().catch(() => undefined);
    await fs.rm(s.profile, { recursive: true, force: true });
  }
}
