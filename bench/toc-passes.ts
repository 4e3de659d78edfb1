/**
 * `npx tsx bench/toc-passes.ts [--quick]`: what a table of contents costs (issue 38's row: the
 * whole render at most 2.5x one pass). test/fixtures/toc/Report.tsx (60 chapters, 24 A4 pages,
 * a TableOfContents, PageRefs and Section page numbers) on one warm template page: the whole
 * render (renderOnTemplatePage: print, read the destinations, render and print again until the
 * numbers settle) against one pass of it (the page helper's render and one print, as the
 * first pass is), alternating, each figure the median of its runs. Also the reading of the
 * destinations alone (pdf-lib). Prints the figures and the ratio; not a test.
 */
import path from 'node:path';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { readDestinationPages } from '../src/core/pdf/named-destinations.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { printPage } from '../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage } from '../src/core/render/template-page.js';
import { percentile } from './lib/stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = process.argv.includes('--quick') ? 5 : 15;
const props = { tocPages: 1 };

const { artifact } = await bundleTemplate(path.join(ROOT, 'test/fixtures/toc/Report.tsx'));
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
try {
  const target = await openTemplatePage(await launched.browser.newPage(), artifact, 30_000);
  const whole: number[] = [];
  const onePass: number[] = [];
  const reading: number[] = [];
  // One untimed of each first: the page's code compiled, pdf-lib's module loaded.
  for (let run = -1; run < RUNS; run++) {
    let started = performance.now();
    const rendered = await renderOnTemplatePage(target, props, { size: 'A4' });
    if (rendered === 'dirty') throw new Error('dirty page');
    const wholeMs = performance.now() - started;

    started = performance.now();
    // The helper's render with no numbers: exactly what the first pass does before its print.
    const outcome = (await target.page.evaluate(`window.__imprintPool.render(${JSON.stringify(props)}, null, null)`)) as { ok: boolean };
    if (!outcome.ok) throw new Error('the single pass failed');
    await printPage(target.page, target.cdp, { size: 'A4' });
    const passMs = performance.now() - started;

    started = performance.now();
    await readDestinationPages(rendered.pdf);
    const readMs = performance.now() - started;
    if (run >= 0) {
      whole.push(wholeMs);
      onePass.push(passMs);
      reading.push(readMs);
    }
  }
  const median = (values: number[]) => percentile(values, 50);
  console.log(`Report.tsx, 60 chapters, ${RUNS} runs each, medians:`);
  console.log(`  one pass (render + print)       ${median(onePass).toFixed(1)} ms`);
  console.log(`  whole render (every pass)       ${median(whole).toFixed(1)} ms`);
  console.log(`  reading the destinations        ${median(reading).toFixed(1)} ms`);
  console.log(`  whole / one pass                ${(median(whole) / median(onePass)).toFixed(2)}  (target <= 2.5)`);
} finally {
  await launched.kill();
}
