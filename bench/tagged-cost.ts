/**
 * `npx tsx bench/tagged-cost.ts [--rows N] [--runs N]`: what tagging by default costs (issue 38).
 * A table document of N rows (default 12,900: 200 A4 pages) rendered on one warm template page and
 * finished as a render is (Info fields, the accessibility step, the tags packed into object streams), untagged, tagged without
 * bookmarks, and tagged with bookmarks (the default), in rounds of A B C C B A so a change of the
 * machine's speed meets all three; each judged by its median. Prints pages, bytes and ms of each
 * and the ratios against untagged, with issue 38's targets: size < 5x, time < 1.5x.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { compactTags, finishAccessibility } from '../src/core/pdf/accessibility.js';
import { finishPdf } from '../src/core/pdf/finish-pdf.js';
import { openTemplatePage, renderOnTemplatePage } from '../src/core/render/template-page.js';
import type { PrintRequest } from '../src/core/render/render-types.js';
import { startChromium } from './lib/browser.js';
import { percentile } from './lib/stats.js';
import { countPdfPages } from '../src/core/limits/pdf-pages.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '12900' }, runs: { type: 'string', default: '3' } } });
const rows = Number(values.rows);
const runs = Number(values.runs);

const VARIANTS: { name: string; request: PrintRequest }[] = [
  { name: 'untagged (--no-tagged)', request: { tagged: false } },
  { name: 'tagged, no bookmarks (--no-outline)', request: { outline: false } },
  { name: 'tagged with bookmarks (the default)', request: {} },
];

const { artifact } = await bundleTemplate(path.join(import.meta.dirname, 'lib', 'TableDocument.tsx'));
const browser = await startChromium();
try {
  const target = await openTemplatePage(await browser.newPage(), artifact, 120_000);
  const times = VARIANTS.map(() => [] as number[]);
  // Where the time goes: the render and Chromium's print, then Imprint's finishing and packing.
  const printing = VARIANTS.map(() => [] as number[]);
  const packing = VARIANTS.map(() => [] as number[]);
  const sizes = VARIANTS.map(() => 0);
  let pages = 0;
  const once = async (index: number) => {
    const started = performance.now();
    const rendered = await renderOnTemplatePage(target, { rows }, VARIANTS[index].request);
    if (rendered === 'dirty') throw new Error('the template page was dirty');
    const printed = performance.now();
    const info = await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata });
    const finished = await finishAccessibility(info, VARIANTS[index].request, rendered.facts);
    const packStart = performance.now();
    const pdf = compactTags(finished, VARIANTS[index].request);
    const end = performance.now();
    times[index].push(end - started);
    printing[index].push(printed - started);
    packing[index].push(end - packStart);
    sizes[index] = pdf.length;
    pages = countPdfPages(pdf) ?? 0;
  };
  // Warm-up, each variant once: the first render of a page runs on a cold JIT, and the first
  // tagged print turns Chromium's accessibility tree on for the page.
  for (const index of [0, 1, 2]) await once(index);
  for (const list of times) list.length = 0;
  for (let run = 0; run < runs; run++) for (const index of run % 2 ? [2, 1, 0] : [0, 1, 2]) await once(index);

  const median = (list: number[]) => percentile(list, 50);
  console.log(`${rows} table rows, ${pages} pages, ${runs} runs of each (median ms)`);
  VARIANTS.forEach((variant, i) => {
    const size = sizes[i] / sizes[0];
    const time = median(times[i]) / median(times[0]);
    console.log(
      `${variant.name.padEnd(38)} ${(sizes[i] / 1024).toFixed(0).padStart(7)} KiB ${median(times[i]).toFixed(0).padStart(6)} ms (render+print ${median(printing[i]).toFixed(0)}, packing ${median(packing[i]).toFixed(0)})  size ${size.toFixed(2)}x (< 5x)  time ${time.toFixed(2)}x (< 1.5x)`,
    );
  });
} finally {
  await browser.close();
}
