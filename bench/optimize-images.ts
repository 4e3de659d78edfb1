/**
 * `npx tsx bench/optimize-images.ts [--quick] [--sharp <node_modules dir>]`: how `optimizeImages`
 * is done, chosen by measurement (issue 40): size, time and install weight of
 * (a) the page's own codecs (core/render/images/in-page.ts: fetch, createImageBitmap,
 *     OffscreenCanvas.convertToBlob), against
 * (b) sharp in Node (libvips, prebuilt @img/* binaries from the npm registry): the same images
 *     at the same pixel sizes and encodings, resized and encoded in Node, then put in the page
 *     as data URLs and printed.
 * On the image-heavy fixture (test/helpers/photo-fixture.ts: 7 image uses, 5 distinct images,
 * 7 to 8 MB as printed today), one warm browser, alternating a/b, medians of the runs.
 * (b) runs only with sharp installed somewhere (`npm install sharp` in a scratch folder, then
 * `--sharp <that folder>/node_modules`): it is not one of Imprint's dependencies.
 * Prints the figures and ratios; not a test.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { printPage } from '../src/core/render/print-pdf.js';
import type { ImagesReport } from '../src/core/render/images/in-page.js';
import { withOptimizedImages } from '../src/core/render/images/optimize.js';
import { OPTIMIZE_IMAGES_DEFAULTS } from '../src/core/render/images/option.js';
import { parseDocumentSize, resolvePageSetup } from '../src/core/page-size.js';
import { drawFixtureImages, imageHeavyHtml, type FixtureImages } from '../test/helpers/photo-fixture.js';
import { percentile } from './lib/stats.js';

const RUNS = process.argv.includes('--quick') ? 3 : 9;
const sharpAt = process.argv.includes('--sharp') ? process.argv[process.argv.indexOf('--sharp') + 1] : undefined;
const options = OPTIMIZE_IMAGES_DEFAULTS;
const setup = resolvePageSetup({ size: parseDocumentSize('A4') });
const median = (values: number[]) => percentile(values, 50);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const du = (dir: string) => Number(execFileSync('du', ['-sb', dir]).toString().split('\t')[0]);

type Sharp = (input: Buffer) => { resize(w: number, h: number): ReturnType<Sharp>; jpeg(o: { quality: number; mozjpeg?: boolean }): ReturnType<Sharp>; png(): ReturnType<Sharp>; toBuffer(): Promise<Buffer> };
const sharp = sharpAt ? (createRequire(path.join(path.resolve(sharpAt), 'x.js'))('sharp') as Sharp) : undefined;

const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });

async function onPage<T>(html: string, work: (page: Page) => Promise<T>): Promise<T> {
  const page = await launched.browser.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    return await work(page);
  } finally {
    await page.close();
  }
}

/** The fixture printed as it is: the baseline both are measured against. */
const plain = (html: string) => onPage(html, async (page) => {
  const started = performance.now();
  const { pdf } = await printPage(page, await page.createCDPSession(), { size: 'A4', tagged: false });
  return { ms: performance.now() - started, bytes: pdf.length };
});

/** (a): the page's codecs, as the render does it. */
const inPage = (html: string) => onPage(html, async (page) => {
  let report: ImagesReport | undefined;
  const cdp = await page.createCDPSession();
  const started = performance.now();
  const pdf = await withOptimizedImages(page, options, setup, async () => (await printPage(page, cdp, { size: 'A4', tagged: false })).pdf, (r) => (report = r));
  return { ms: performance.now() - started, bytes: pdf.length, report: report! };
});

/** (b): sharp in Node, to the sizes and encodings (a) chose, then the page printed with them. */
async function inNode(images: FixtureImages, report: ImagesReport) {
  const started = performance.now();
  const replaced = { ...images };
  const names = Object.keys(images) as (keyof FixtureImages)[];
  // The report lists distinct images in the order the page met them; matched here by source pixels.
  for (const detail of report.details) {
    if (!detail.to) continue;
    const name = names.find((n) => detail.bytes === Buffer.from(images[n].split(',')[1]!, 'base64').length)!;
    const source = Buffer.from(images[name].split(',')[1]!, 'base64');
    const resized = sharp!(source).resize(detail.to.width, detail.to.height);
    const out = detail.to.type === 'image/png' ? await resized.png().toBuffer() : await resized.jpeg({ quality: options.quality }).toBuffer();
    replaced[name] = `data:${detail.to.type};base64,${out.toString('base64')}`;
  }
  const encodeMs = performance.now() - started;
  const printed = await plain(imageHeavyHtml(replaced));
  return { ms: encodeMs + printed.ms, encodeMs, bytes: printed.bytes };
}

try {
  const images = await drawFixtureImages(launched.browser);
  const html = imageHeavyHtml(images);
  await plain(html); // untimed: the browser's code warm
  const rows = { plain: [] as number[], a: [] as number[], aPage: [] as number[], b: [] as number[], bEncode: [] as number[] };
  let sizes = { plain: 0, a: 0, b: 0 };
  let last: ImagesReport | undefined;
  for (let run = 0; run < RUNS; run++) {
    const base = await plain(html);
    const a = await inPage(html);
    rows.plain.push(base.ms);
    rows.a.push(a.ms);
    rows.aPage.push(a.report.ms);
    sizes = { ...sizes, plain: base.bytes, a: a.bytes };
    last = a.report;
    if (sharp) {
      const b = await inNode(images, a.report);
      rows.b.push(b.ms);
      rows.bEncode.push(b.encodeMs);
      sizes.b = b.bytes;
    }
  }
  const report = last!;
  console.log(`image-heavy fixture (A4, ${report.images} distinct images, ${report.reencoded} re-encoded, ${report.deduplicated} duplicate URL folded), ${RUNS} runs, medians; maxDpi ${options.maxDpi}, quality ${options.quality}`);
  for (const detail of report.details) {
    console.log(`  ${detail.from.padEnd(10)} ${`${detail.width}x${detail.height}`.padEnd(10)} ${kb(detail.bytes).padStart(8)} -> ${detail.to ? `${detail.to.type.padEnd(10)} ${`${detail.to.width}x${detail.to.height}`.padEnd(9)} ${kb(detail.to.bytes).padStart(7)}` : 'kept'}`);
  }
  console.log(`  kept: ${JSON.stringify(report.kept)}`);
  console.log('');
  console.log(`  as printed today           ${kb(sizes.plain).padStart(9)}   print ${median(rows.plain).toFixed(0)} ms`);
  console.log(`  (a) in the page            ${kb(sizes.a).padStart(9)}   print ${median(rows.a).toFixed(0)} ms (in-page work ${median(rows.aPage).toFixed(0)} ms, ${(median(rows.aPage) / report.reencoded).toFixed(0)} ms per re-encoded image)   install 0 MB`);
  if (sharp) {
    const weight = du(path.resolve(sharpAt!, 'sharp')) + du(path.resolve(sharpAt!, '@img'));
    console.log(`  (b) sharp in Node          ${kb(sizes.b).padStart(9)}   print ${median(rows.b).toFixed(0)} ms (encoding ${median(rows.bEncode).toFixed(0)} ms, ${(median(rows.bEncode) / report.reencoded).toFixed(0)} ms per image)   install ${(weight / 1e6).toFixed(1)} MB (sharp + @img/*)`);
    console.log('');
    console.log(`  size (a)/today ${(sizes.a / sizes.plain).toFixed(3)}   (b)/today ${(sizes.b / sizes.plain).toFixed(3)}   (a)/(b) ${(sizes.a / sizes.b).toFixed(2)}`);
    console.log(`  time (a)/today ${(median(rows.a) / median(rows.plain)).toFixed(2)}   (b)/today ${(median(rows.b) / median(rows.plain)).toFixed(2)}   (a)/(b) ${(median(rows.a) / median(rows.b)).toFixed(2)}`);
  } else {
    console.log('  (b) skipped: pass --sharp <node_modules folder holding sharp> to measure it');
    console.log(`  size (a)/today ${(sizes.a / sizes.plain).toFixed(3)}   time (a)/today ${(median(rows.a) / median(rows.plain)).toFixed(2)}`);
  }
  console.log(`  time added per distinct image by (a): ${((median(rows.a) - median(rows.plain)) / report.images).toFixed(0)} ms (negative: the smaller print saves more than the work costs)`);
} finally {
  await launched.browser.close();
}
