/**
 * `npx tsx bench/tagged-cost.ts [--rows N] [--runs N] [--named] [--keep DIR]`: what tagging by
 * default costs (issue 38). A table document of N rows (default 12,900: 200 A4 pages) rendered
 * on one warm template page and finished as a render is, untagged (--no-tagged) and tagged with
 * bookmarks (the default); with --named also tagged with its headings named by `data-outline`
 * (which makes the accessibility step rewrite the outline). Each variant is warmed once, then
 * the runs alternate (A B / B A ...) so a change of the shared machine's speed meets every
 * variant alike; each figure is a median with its spread (min-max).
 *
 * Each render is split into phases: render (the template's render in the page, up to the print,
 * render-timing.ts's print-start mark), print (Chromium's Page.printToPDF, the bytes' transfer
 * included, print-start to print-end), facts (reading the page's facts after the print), info
 * (finish-pdf.ts, the Info rewrite), a11y (accessibility.ts's outline rewrite / PDF/UA) and pack
 * (the structure tree into object streams). `--keep DIR` writes each variant's last print as it
 * came from Chromium, for profiling the finishing steps on it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { compactTags, finishAccessibility } from '../src/core/pdf/accessibility.js';
import { finishPdf } from '../src/core/pdf/finish-pdf.js';
import { openTemplatePage, renderOnTemplatePage } from '../src/core/render/template-page.js';
import { timeRender, type RenderMarks } from '../src/core/render/render-timing.js';
import type { PrintRequest } from '../src/core/render/render-types.js';
import { startChromium } from './lib/browser.js';
import { percentile } from './lib/stats.js';
import { countPdfPages } from '../src/core/limits/pdf-pages.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '12900' }, runs: { type: 'string', default: '3' }, named: { type: 'boolean', default: false }, keep: { type: 'string' } },
});
const rows = Number(values.rows);
const runs = Number(values.runs);

const VARIANTS: { name: string; request: PrintRequest; named?: boolean }[] = [
  { name: 'untagged (--no-tagged)', request: { tagged: false } },
  { name: 'tagged with bookmarks (default)', request: {} },
  ...(values.named ? [{ name: 'tagged, headings named (data-outline)', request: {}, named: true }] : []),
];
const PHASES = ['total', 'render', 'print', 'facts', 'info', 'a11y', 'pack'] as const;
type Phase = (typeof PHASES)[number];

const { artifact } = await bundleTemplate(path.join(import.meta.dirname, 'lib', 'TableDocument.tsx'));
const browser = await startChromium();
try {
  const target = await openTemplatePage(await browser.newPage(), artifact, 300_000);
  const times = VARIANTS.map(() => Object.fromEntries(PHASES.map((phase) => [phase, [] as number[]])) as Record<Phase, number[]>);
  const sizes = VARIANTS.map(() => ({ printed: 0, finished: 0 }));
  let pages = 0;
  const once = async (index: number) => {
    const { request, named } = VARIANTS[index];
    const marks: RenderMarks = {};
    const started = performance.now();
    const rendered = await timeRender(marks, () => renderOnTemplatePage(target, { rows, named }, request));
    if (rendered === 'dirty') throw new Error('the template page was dirty');
    const printed = performance.now();
    const info = await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata });
    const infoEnd = performance.now();
    const accessible = await finishAccessibility(info, request, rendered.facts);
    const a11yEnd = performance.now();
    const pdf = compactTags(accessible, request);
    const end = performance.now();
    const phases: Record<Phase, number> = {
      total: end - started,
      render: marks['print-start']! - started,
      print: marks['print-end']! - marks['print-start']!,
      facts: printed - marks['print-end']!,
      info: infoEnd - printed,
      a11y: a11yEnd - infoEnd,
      pack: end - a11yEnd,
    };
    for (const phase of PHASES) times[index][phase].push(phases[phase]);
    sizes[index] = { printed: rendered.pdf.length, finished: pdf.length };
    pages = countPdfPages(pdf) ?? 0;
    if (values.keep) {
      mkdirSync(values.keep, { recursive: true });
      writeFileSync(path.join(values.keep, `printed-${index}.pdf`), rendered.pdf);
    }
    process.stderr.write(`${VARIANTS[index].name}: ${phases.total.toFixed(0)} ms (print ${phases.print.toFixed(0)})\n`);
  };
  // Warm-up, each variant once: the first render of a page runs on a cold JIT, and the first
  // tagged print turns Chromium's accessibility tree on for the page.
  for (let index = 0; index < VARIANTS.length; index++) await once(index);
  for (const variant of times) for (const list of Object.values(variant)) list.length = 0;
  const order = VARIANTS.map((_, i) => i);
  for (let run = 0; run < runs; run++) for (const index of run % 2 ? [...order].reverse() : order) await once(index);

  const median = (list: number[]) => percentile(list, 50);
  const spread = (list: number[]) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
  console.log(`${rows} table rows, ${pages} pages, ${runs} runs of each, alternating; median ms (min-max)`);
  VARIANTS.forEach((variant, i) => {
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    console.log(`${variant.name}: printed ${kib(sizes[i].printed)}, finished ${kib(sizes[i].finished)}  size ${(sizes[i].finished / sizes[0].finished).toFixed(2)}x (< 5x)`);
    for (const phase of PHASES) {
      const list = times[i][phase];
      const ratio = median(list) / median(times[0][phase]);
      console.log(`  ${phase.padEnd(7)} ${median(list).toFixed(0).padStart(7)} (${spread(list)})${phase === 'total' || phase === 'print' ? `  ${ratio.toFixed(2)}x untagged${phase === 'total' ? ' (< 1.5x)' : ''}` : ''}`);
    }
  });
  // Paired ratios: each run's tagged total over the untagged run next to it, so load shifts cancel.
  for (let i = 1; i < VARIANTS.length; i++) {
    const paired = times[i].total.map((ms, k) => ms / times[0].total[k]);
    console.log(`${VARIANTS[i].name}: paired total ratios ${paired.map((r) => r.toFixed(2)).join(' ')}, median ${median(paired).toFixed(2)}x`);
  }
} finally {
  await browser.close();
}
