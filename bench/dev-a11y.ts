/**
 * `npx tsx bench/dev-a11y.ts [rounds]`: what the dev studio's accessibility findings cost one
 * preview of the example invoice, built as `imprint dev` builds it (unminified, with source
 * positions). Per round, in a fresh browser context as a preview has: the preview's render and
 * print untagged and tagged, axe-core in the rendered page, and the PDF-side checks (finish and
 * read back). Medians; the ratios say what waiting for the findings would add to a preview.
 * Not a test: it measures and prints.
 */
import { createTemplateBuilder } from '../src/core/bundle/bundle-template.js';
import { runAxe } from '../src/core/check/a11y/axe-page.js';
import { readPdfA11yFacts } from '../src/core/check/a11y/pdf-checks.js';
import { finishPdf } from '../src/core/pdf/finish-pdf.js';
import { renderDiagnosed } from '../src/core/check/render-diagnosed.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { INVOICE } from './lib/invoice.js';
import { percentile } from './lib/stats.js';

const rounds = Number(process.argv[2] ?? 5);
const builder = createTemplateBuilder(INVOICE, { minify: false, sourcePositions: true });
const bundled = await builder.build();
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const { browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
const samples: Record<'untagged' | 'tagged' | 'axe' | 'pdfChecks', number[]> = { untagged: [], tagged: [], axe: [], pdfChecks: [] };
try {
  // One untimed round first: Chromium's and axe's first run (compilation, caches) is not what a save costs.
  for (let round = -1; round < rounds; round++) {
    const keep = round >= 0;
    let started = performance.now();
    await renderDiagnosed(browser, bundled.artifact, undefined, {}, 60_000);
    if (keep) samples.untagged.push(performance.now() - started);
    let axeMs = 0;
    started = performance.now();
    const rendered = await renderDiagnosed(browser, bundled.artifact, undefined, { tagged: true }, 60_000, { beforePrint: async (page, metadata) => {
      const axeStarted = performance.now();
      await runAxe(page, (metadata as { language?: string } | undefined)?.language);
      axeMs = performance.now() - axeStarted;
    } });
    if (keep) samples.tagged.push(performance.now() - started - axeMs);
    if (keep) samples.axe.push(axeMs);
    started = performance.now();
    await readPdfA11yFacts(await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata }));
    if (keep) samples.pdfChecks.push(performance.now() - started);
  }
} finally {
  await browser.close();
  await builder.dispose();
}
const median = (values: number[]) => percentile(values, 50);
const row = (label: string, values: number[]) => process.stdout.write(`${label.padEnd(34)} median ${median(values).toFixed(0).padStart(5)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})\n`);
row('preview, untagged (render + print)', samples.untagged);
row('preview, tagged (render + print)', samples.tagged);
row('axe-core in the page', samples.axe);
row('PDF-side checks (finish + read)', samples.pdfChecks);
const base = median(samples.untagged);
process.stdout.write(`tagged / untagged: ${(median(samples.tagged) / base).toFixed(2)}x; with axe and the PDF checks waited for: ${((median(samples.tagged) + median(samples.axe) + median(samples.pdfChecks)) / base).toFixed(2)}x (${rounds} rounds)\n`);
