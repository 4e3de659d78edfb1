/**
 * `npx tsx bench/tagged-cpu.ts [--docs N] [--rounds N] [--other CHECKOUT] [--split] [--table ROWS]`:
 * the CPU of one batch invoice (bench/lib/invoice.ts; `--table`: tagged-cost.ts's table document
 * of ROWS rows instead) tagged (the default) against `--no-tagged`, in
 * process, on one browser: render, print and finishPrint, at the batch's concurrency (two warm
 * template pages per variant, each in its own browser context). `--other`: the same with another
 * checkout's page and finishing code (a `git worktree` of main, with its node_modules), so a
 * change is measured against what it replaces. Passes of N documents alternate (A B C D / D C B
 * A ...); for each, CPU per document in Chromium (the browser's process tree, reaped print
 * compositors included, lib/tree-cpu.ts) and in Node (process.cpuUsage): CPU moves far less with
 * the shared machine's load than wall time.
 *
 * `--split`: each document's render and print timed apart, one page at a time (Chromium's CPU
 * before the render, between the render and the print (renderOnTemplatePage's beforePrint) and
 * after the print): whether the render after a tagged print costs more (a page that keeps state
 * from its print) or the print itself does. `--facts`: what the page facts' call after the print
 * cost (readPageFacts, which a template page made before it read them in its render call, and an
 * HTML page still makes): 5 x 400 calls on a rendered page, Node's and Chromium's CPU and the wall
 * time of one.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PrintRequest } from '../src/core/render/render-types.js';
import type { TemplatePage } from '../src/core/render/template-page.js';
import { cpuPass, median, range, type PassFigures } from './lib/cpu-pass.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { readPageFacts } from '../src/core/render/page-facts.js';
import { runningAsRoot } from './lib/browser.js';
import { checkoutCode, type CheckoutCode } from './lib/checkout-code.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';
import { treeCpuMs } from './lib/tree-cpu.js';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '6' },
    other: { type: 'string' },
    split: { type: 'boolean', default: false },
    table: { type: 'string' },
    facts: { type: 'boolean', default: false },
  },
});
const template = values.table ? path.join(import.meta.dirname, 'lib', 'TableDocument.tsx') : INVOICE;
/** Document n's props: each its own, so no render is the last one again. */
const propsOf = (n: number) => (values.table ? { rows: Number(values.table) + (n % 2) } : invoiceProps(n));
const docs = Number(values.docs);
const rounds = Number(values.rounds);

interface Variant {
  name: string;
  request: PrintRequest;
  code: CheckoutCode;
  pages: TemplatePage[];
}

const launched = await launchBrowser({ executablePath: await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot });
const { browser, pid } = launched;
if (pid === undefined) throw new Error('the browser has no process of its own to measure');
try {
  const roots = [{ label: 'this', root: path.resolve(import.meta.dirname, '..') }, ...(values.other ? [{ label: 'other', root: path.resolve(values.other) }] : [])];
  const variants: Variant[] = [];
  for (const { label, root } of roots) {
    const code = await checkoutCode(root);
    const { artifact } = await code.bundleTemplate(template);
    for (const [name, request] of [['tagged', {}], ['--no-tagged', { tagged: false }]] as const) {
      const pages = [];
      for (let i = 0; i < 2; i++) pages.push(await code.openTemplatePage(await (await browser.createBrowserContext()).newPage(), artifact, 300_000));
      variants.push({ name: `${label} ${name}`, request, code, pages });
    }
  }
  let n = 0;
  const one = async ({ code, request }: Variant, page: TemplatePage) => {
    const rendered = await code.renderOnTemplatePage(page, propsOf(n++), request);
    if (rendered === 'dirty') throw new Error('the template page was dirty');
    return code.finishPrint(rendered, request, { date: undefined });
  };
  /** Render and print on one page, the render's Chromium CPU (after the last print) apart from the print's, ms per document. */
  const split = async ({ code, request, pages: [page] }: Variant) => {
    let render = 0;
    let print = 0;
    for (let i = 0; i < docs; i++) {
      const before = treeCpuMs(pid);
      let rendered = before;
      const done = await code.renderOnTemplatePage(page, propsOf(n++), request, undefined, async () => void (rendered = treeCpuMs(pid)));
      if (done === 'dirty') throw new Error('the template page was dirty');
      render += rendered - before;
      print += treeCpuMs(pid) - rendered;
    }
    return { render: render / docs, print: print / docs };
  };
  for (const variant of variants) await cpuPass(pid, variant.pages, Math.min(20, docs), (page) => one(variant, page));
  if (values.facts) {
    const [page] = variants[0].pages;
    console.log('the page facts read in a call of their own (readPageFacts, bookmark names), a call:');
    for (let pass = 0; pass < 5; pass++) {
      const calls = 400;
      const node = process.cpuUsage();
      const chromium = treeCpuMs(pid);
      const started = performance.now();
      for (let i = 0; i < calls; i++) await readPageFacts(page.page, { headings: true, pdfua: false });
      const { user, system } = process.cpuUsage(node);
      console.log(`  Node ${((user + system) / 1000 / calls).toFixed(3)} ms, Chromium ${((treeCpuMs(pid) - chromium) / calls).toFixed(3)} ms, wall ${((performance.now() - started) / calls).toFixed(3)} ms`);
    }
  }
  const results = variants.map(() => [] as PassFigures[]);
  const splits = variants.map(() => [] as { render: number; print: number }[]);
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? [...variants.keys()].reverse() : variants.keys()) {
      loads.push(os.loadavg()[0]);
      results[i].push(await cpuPass(pid, variants[i].pages, docs, (page) => one(variants[i], page)));
      if (values.split) splits[i].push(await split(variants[i]));
    }
  }
  if (rounds > 0) {
    const col = (xs: number[]) => `${median(xs).toFixed(2)} (${range(xs, 2)})`.padEnd(22);
    console.log(`${docs} ${values.table ? `${values.table}-row tables` : 'invoices'} a pass, ${rounds} rounds alternating, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; median (min-max)`);
    console.log(`${'variant'.padEnd(18)} ${'docs/s'.padEnd(22)} ${'Chromium CPU ms/doc'.padEnd(22)} Node CPU ms/doc`);
    variants.forEach((variant, i) => console.log(`${variant.name.padEnd(18)} ${col(results[i].map((x) => x.rate))} ${col(results[i].map((x) => x.chromiumMs))} ${col(results[i].map((x) => x.nodeMs))}`));
    if (values.split) {
      console.log(`the render (after the last print) and the print apart, one page, ${docs} a pass: Chromium CPU ms/doc`);
      variants.forEach((variant, i) => console.log(`${variant.name.padEnd(18)} render ${col(splits[i].map((x) => x.render))} print ${col(splits[i].map((x) => x.print))}`));
    }
  }
} finally {
  await launched.kill();
}
