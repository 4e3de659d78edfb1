/**
 * `npx tsx bench/tagged-cost.ts [--rows N] [--runs N] [--named] [--other CHECKOUT] [--keep DIR]`:
 * what tagging by default costs (issue 38). A table document of N rows (default 12,900: 200 A4
 * pages) rendered on one warm template page and finished as a render is (finish-print.ts),
 * untagged (--no-tagged) and tagged with bookmarks (the default); with --named also tagged with
 * its headings named by `data-outline` (which makes the accessibility step rewrite the
 * outline). `--other`: every variant again with another checkout's page and finishing code (a
 * `git worktree` of main, with its node_modules), on a page of its own in the same browser, so
 * a change is measured against what it replaces in the same minutes. Each variant is warmed
 * once, then the runs alternate (A B / B A ...) so a change of the shared machine's speed meets
 * every variant alike; each figure is a median with its spread (min-max).
 *
 * Each render is split into phases: render (the template's render in the page, up to the print,
 * render-timing.ts's print-start mark), print (Chromium's Page.printToPDF, the bytes' transfer
 * included, print-start to print-end), facts (what the render does after the print: a checkout
 * that reads the page's facts in a call after the print does it here) and finish (finishPrint:
 * the structure ids, the Info, the accessibility step, the tags packed). `--keep DIR` writes
 * each variant's last print as it came from Chromium, for profiling the finishing steps on it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RenderMarks } from '../src/core/render/render-timing.js';
import type { PrintRequest } from '../src/core/render/render-types.js';
import type { TemplatePage } from '../src/core/render/template-page.js';
import { startChromium } from './lib/browser.js';
import { checkoutCode, type CheckoutCode } from './lib/checkout-code.js';
import { percentile } from './lib/stats.js';
import { countPdfPages } from '../src/core/limits/pdf-pages.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '12900' },
    runs: { type: 'string', default: '3' },
    named: { type: 'boolean', default: false },
    other: { type: 'string' },
    keep: { type: 'string' },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);

interface Request {
  name: string;
  request: PrintRequest;
  named?: boolean;
}

const REQUESTS: Request[] = [
  { name: 'untagged (--no-tagged)', request: { tagged: false } },
  { name: 'tagged with bookmarks (default)', request: {} },
  ...(values.named ? [{ name: 'tagged, headings named (data-outline)', request: {}, named: true }] : []),
];
const PHASES = ['total', 'render', 'print', 'facts', 'finish'] as const;
type Phase = (typeof PHASES)[number];

const browser = await startChromium();
try {
  const roots = [{ label: 'this', root: path.resolve(import.meta.dirname, '..') }, ...(values.other ? [{ label: 'other', root: path.resolve(values.other) }] : [])];
  const variants: (Request & { code: CheckoutCode; target: TemplatePage })[] = [];
  for (const { label, root } of roots) {
    const code = await checkoutCode(root);
    const { artifact } = await code.bundleTemplate(path.join(import.meta.dirname, 'lib', 'TableDocument.tsx'));
    const target = await code.openTemplatePage(await browser.newPage(), artifact, 300_000);
    for (const request of REQUESTS) variants.push({ ...request, name: roots.length > 1 ? `${label}: ${request.name}` : request.name, code, target });
  }
  const times = variants.map(() => Object.fromEntries(PHASES.map((phase) => [phase, [] as number[]])) as Record<Phase, number[]>);
  const sizes = variants.map(() => ({ printed: 0, finished: 0 }));
  let pages = 0;
  const once = async (index: number) => {
    const { request, named, code, target } = variants[index];
    const marks: RenderMarks = {};
    const started = performance.now();
    const rendered = await code.timeRender(marks, () => code.renderOnTemplatePage(target, { rows, named }, request));
    if (rendered === 'dirty') throw new Error('the template page was dirty');
    const printed = performance.now();
    const pdf = await code.finishPrint(rendered, request, { date: undefined });
    const end = performance.now();
    const phases: Record<Phase, number> = {
      total: end - started,
      render: marks['print-start']! - started,
      print: marks['print-end']! - marks['print-start']!,
      facts: printed - marks['print-end']!,
      finish: end - printed,
    };
    for (const phase of PHASES) times[index][phase].push(phases[phase]);
    sizes[index] = { printed: rendered.pdf.length, finished: pdf.length };
    pages = countPdfPages(pdf) ?? 0;
    if (values.keep) {
      mkdirSync(values.keep, { recursive: true });
      writeFileSync(path.join(values.keep, `printed-${index}.pdf`), rendered.pdf);
    }
    process.stderr.write(`${variants[index].name}: ${phases.total.toFixed(0)} ms (print ${phases.print.toFixed(0)}, finish ${phases.finish.toFixed(0)})\n`);
  };
  // Warm-up, each variant once: the first render of a page runs on a cold JIT, and the first
  // tagged print turns Chromium's accessibility tree on for the page.
  for (let index = 0; index < variants.length; index++) await once(index);
  for (const variant of times) for (const list of Object.values(variant)) list.length = 0;
  const order = variants.map((_, i) => i);
  for (let run = 0; run < runs; run++) for (const index of run % 2 ? [...order].reverse() : order) await once(index);

  const median = (list: number[]) => percentile(list, 50);
  const spread = (list: number[]) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
  console.log(`${rows} table rows, ${pages} pages, ${runs} runs of each, alternating; median ms (min-max)`);
  variants.forEach((variant, i) => {
    // Each checkout's variants against its own untagged one.
    const base = i - (i % REQUESTS.length);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    console.log(`${variant.name}: printed ${kib(sizes[i].printed)}, finished ${kib(sizes[i].finished)}  size ${(sizes[i].finished / sizes[base].finished).toFixed(2)}x (< 5x)`);
    for (const phase of PHASES) {
      const list = times[i][phase];
      const ratio = median(list) / median(times[base][phase]);
      console.log(`  ${phase.padEnd(7)} ${median(list).toFixed(0).padStart(7)} (${spread(list)})${phase === 'total' || phase === 'print' ? `  ${ratio.toFixed(2)}x untagged${phase === 'total' ? ' (< 1.5x)' : ''}` : ''}`);
    }
  });
  // Paired ratios: each run's tagged total over the untagged run next to it, so load shifts cancel.
  variants.forEach((variant, i) => {
    const base = i - (i % REQUESTS.length);
    if (i === base) return;
    const paired = times[i].total.map((ms, k) => ms / times[base].total[k]);
    console.log(`${variant.name}: paired total ratios ${paired.map((r) => r.toFixed(2)).join(' ')}, median ${median(paired).toFixed(2)}x`);
  });
} finally {
  await browser.close();
}
