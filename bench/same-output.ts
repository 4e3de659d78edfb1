/**
 * `npx tsx bench/same-output.ts <other checkout>`: the PDFs this checkout's page code prints
 * against another's (main's, say), byte for byte, for the templates whose printing a change to
 * the page runtime or template-page.ts could move: the example invoice (many props), letter
 * (a web font) and report (running headers), the components' fixtures (margin fonts, page
 * variants), CSS backgrounds, and work left for after the commit (effects, frames, an
 * observer). Each template renders its documents in turn on one warm page per side, each side
 * in a Chromium started by its own launch-browser.ts (so its launch flags are compared too);
 * every PDF is finished with a fixed date, as a deterministic render is. Prints one
 * line per template and exits non-zero when any PDF differs. Not a test: a check to run by
 * hand before and after a change to how a page renders.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { finishPdf } from '../src/core/pdf/finish-pdf.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { INVOICE, invoiceProps, ROOT } from './lib/invoice.js';

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx bench/same-output.ts <other checkout>');

const json = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const CASES: { file: string; props: unknown[] }[] = [
  { file: INVOICE, props: [0, 1, 2, 3, 4, 5].map(invoiceProps) },
  { file: path.join(ROOT, 'templates-example/letter/Letter.tsx'), props: [json('templates-example/letter/props.json'), undefined] },
  { file: path.join(ROOT, 'templates-example/report/Report.tsx'), props: [json('templates-example/report/props.json'), undefined] },
  ...['MarginFont', 'PageVariants', 'Paged'].map((name) => ({ file: path.join(ROOT, `test/fixtures/components/${name}.tsx`), props: [undefined, undefined] })),
  { file: path.join(ROOT, 'test/fixtures/components/Sized.tsx'), props: [{ size: 'A5', orientation: 'landscape' }, { size: 'Letter' }, {}] },
  { file: path.join(ROOT, 'test/fixtures/css-background/Backgrounds.tsx'), props: [1, 2, 3, 4].map((i) => ({ label: `row${i}`, tile: i % 2 === 0 })) },
  { file: path.join(ROOT, 'test/fixtures/pool/Effects.tsx'), props: ['state', 'chain', 'frame', 'resize', 'state', 'resize', 'lazy', 'state'].map((mode) => ({ mode })) },
];

async function side(root: string) {
  const bundle = await import(path.join(root, 'src/core/bundle/bundle-template.ts'));
  const page = await import(path.join(root, 'src/core/render/template-page.ts'));
  const launch = await import(path.join(root, 'src/core/render/launch-browser.ts'));
  return { bundleTemplate: bundle.bundleTemplate, openTemplatePage: page.openTemplatePage, renderOnTemplatePage: page.renderOnTemplatePage, launchBrowser: launch.launchBrowser as typeof launchBrowser };
}

const sides = [await side(path.resolve(import.meta.dirname, '..')), await side(path.resolve(other))];
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
// Each side in a Chromium started by its own launch-browser.ts: its flags are part of what prints.
const browsers = await Promise.all(sides.map((s) => s.launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 })));
let differ = 0;
try {
  for (const c of CASES) {
    const digests: string[][] = [];
    for (const [i, s] of sides.entries()) {
      const { artifact } = await s.bundleTemplate(c.file);
      const context = await browsers[i].browser.createBrowserContext();
      const target = await s.openTemplatePage(await context.newPage(), artifact, 30_000);
      const list: string[] = [];
      for (const props of c.props) {
        const rendered = await s.renderOnTemplatePage(target, props, {});
        if (rendered === 'dirty') throw new Error(`${c.file}: dirty page`);
        const pdf = await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata, date: new Date(Date.UTC(2020, 0, 1)) });
        list.push(crypto.createHash('sha256').update(pdf).digest('hex').slice(0, 12));
      }
      await context.close();
      digests.push(list);
    }
    const same = digests[0].every((d, i) => d === digests[1][i]);
    if (!same) differ++;
    process.stdout.write(`${same ? 'same' : 'DIFFERENT'}  ${path.relative(ROOT, c.file)}: ${digests[0].join(' ')}${same ? '' : ` against ${digests[1].join(' ')}`}\n`);
  }
} finally {
  await Promise.all(browsers.map((b) => b.kill()));
}
process.exitCode = differ ? 1 : 0;
