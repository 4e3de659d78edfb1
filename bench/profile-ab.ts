/**
 * `npx tsx bench/profile-ab.ts <other checkout> [docs] [rounds]`: the CPU of one batch
 * document (render in the page + print) with this checkout's page code against another's
 * (a `git worktree` of main, say), in one process on one browser, so the two meet the same
 * machine load. Each side bundles the invoice with its own page runtime (src/runtime) and
 * opens two warm template pages with its own template-page.ts; then passes of `docs`
 * documents at concurrency 2 alternate A B B A ... for `rounds` rounds. For each pass: CPU per
 * document in Chromium (the browser's process tree from /proc, reaped children included: the
 * print compositor of each print) and in Node (process.cpuUsage). Not a test: it measures and
 * prints the medians and ranges.
 *
 * AB_OWN_BROWSERS=1: each side in a Chromium started by its own launch-browser.ts (its launch
 * flags measured too), each pass's CPU from its own browser's tree; the idle one costs next to
 * nothing meanwhile.
 *
 * The other checkout needs its node_modules (esbuild resolves React from it).
 */
import os from 'node:os';
import path from 'node:path';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { cpuPass, describeAbPasses } from './lib/cpu-pass.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx bench/profile-ab.ts <other checkout> [docs] [rounds]');
const docs = Number(process.argv[3] ?? 100);
const rounds = Number(process.argv[4] ?? 4);
const concurrency = 2;

interface Side {
  name: string;
  bundleTemplate: typeof import('../src/core/bundle/bundle-template.js').bundleTemplate;
  openTemplatePage: typeof import('../src/core/render/template-page.js').openTemplatePage;
  renderOnTemplatePage: typeof import('../src/core/render/template-page.js').renderOnTemplatePage;
  launchBrowser: typeof launchBrowser;
}

async function side(name: string, root: string): Promise<Side> {
  const bundle = await import(path.join(root, 'src/core/bundle/bundle-template.ts'));
  const page = await import(path.join(root, 'src/core/render/template-page.ts'));
  const launch = await import(path.join(root, 'src/core/render/launch-browser.ts'));
  return { name, bundleTemplate: bundle.bundleTemplate, openTemplatePage: page.openTemplatePage, renderOnTemplatePage: page.renderOnTemplatePage, launchBrowser: launch.launchBrowser };
}

const here = path.resolve(import.meta.dirname, '..');
const sides = [await side('A (this)', here), await side(`B (${other})`, path.resolve(other))];
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const ownBrowsers = process.env.AB_OWN_BROWSERS === '1';
const launchedList = ownBrowsers
  ? await Promise.all(sides.map((s) => s.launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 })))
  : [await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 })];
const browserOf = (i: number) => launchedList[ownBrowsers ? i : 0];
try {
  const opened: { side: Side; pid: number; pages: Awaited<ReturnType<Side['openTemplatePage']>>[] }[] = [];
  for (const [index, s] of sides.entries()) {
    const launched = browserOf(index);
    // The invoice is bundled from this checkout's path with each side's bundler and runtime.
    const { artifact } = await s.bundleTemplate(INVOICE);
    const pages = [];
    for (let i = 0; i < concurrency; i++) {
      const context = await launched.browser.createBrowserContext();
      pages.push(await s.openTemplatePage(await context.newPage(), artifact, 30_000));
    }
    opened.push({ side: s, pid: launched.pid!, pages });
  }
  let n = 0;
  const pass = ({ side: s, pid, pages }: (typeof opened)[number], count: number) =>
    cpuPass(pid, pages, count, async (page) => {
      if ((await s.renderOnTemplatePage(page, invoiceProps(n++), {})) === 'dirty') throw new Error('dirty page');
    });
  for (const o of opened) await pass(o, 20); // warm every path
  const results: Awaited<ReturnType<typeof pass>>[][] = [[], []];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) results[i].push(await pass(opened[i], docs));
  }
  process.stdout.write(`${ownBrowsers ? 'a browser each side, ' : 'one browser, '}${docs} documents a pass, ${rounds} rounds, concurrency ${concurrency}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  for (const line of describeAbPasses(sides.map((s) => s.name), results, 28)) process.stdout.write(`${line}\n`);
} finally {
  await Promise.all(launchedList.map((l) => l.kill()));
}
