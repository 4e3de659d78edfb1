/**
 * `npx tsx bench/forms-step.ts [runs]`: what the form step (src/core/pdf/forms) adds to a
 * render, for docs/finishing.md (Forms). The form fixture (test/fixtures/forms/OrderForm.tsx:
 * 3 A4 pages, 7 fields, 8 widgets), printed once by a real Chromium, plain and tagged; then
 * the step alone on those bytes, fillable and flattened, `runs` times each (default 30), after
 * 3 warm-up calls. Prints the median and p90 in ms per call, and the print's own time beside
 * them for scale. Not a test: the numbers move with the machine's load.
 */
import path from 'node:path';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { addFormFields } from '../src/core/pdf/forms/add-form-fields.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { openTemplatePage, renderOnTemplatePage } from '../src/core/render/template-page.js';
import { ROOT } from './lib/invoice.js';

const runs = Number(process.argv[2] ?? 30);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function timed(work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

const { artifact } = await bundleTemplate(path.join(ROOT, 'test/fixtures/forms/OrderForm.tsx'));
const { browser, kill } = await launchBrowser({ executablePath: await findBrowser({ systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot: process.getuid?.() === 0 });
try {
  const page = await openTemplatePage(await browser.newPage(), artifact, 60_000);
  for (const tagged of [false, true]) {
    let printed: { pdf: Buffer; fields?: unknown[] } | undefined;
    const print = await timed(async () => {
      const rendered = await renderOnTemplatePage(page, undefined, { tagged });
      if (rendered === 'dirty') throw new Error('the page came back dirty');
      printed = rendered;
    });
    const { pdf, fields } = printed!;
    const row = (what: string, times: number[]) => console.log(`${tagged ? 'tagged' : 'plain '}  ${what.padEnd(22)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms   p90 ${percentile(times, 0.9).toFixed(1).padStart(6)} ms`);
    row('render + print', print);
    row('form step, fillable', await timed(() => addFormFields(pdf, fields)));
    row('form step, flatten', await timed(() => addFormFields(pdf, fields, { flatten: true })));
  }
} finally {
  await kill();
}
