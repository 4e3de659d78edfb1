/**
 * The one-shot section: what a shell script pays per `imprint render`, against what a
 * hand-written puppeteer-core script pays for the same invoice, in the same run:
 *
 *   reference  node reference-one-shot.mjs on the invoice's HTML (a whole process)
 *   cold       imprint render with no renderer running (it starts one)
 *   warm       imprint render with the renderer running
 *   loop       a shell loop of N renders, with the renderer and with --no-renderer
 *   version    imprint --version against node -e 0
 *
 * When the environment sets NODE_EXTRA_CA_CERTS (this machine's does: 144 certificates), every
 * Node process parses that file as it starts, before any script runs (a perf profile of
 * `node -e 0`: node::crypto::UseExtraCaCerts), and no program can skip it: the loop is then run
 * a second time without it, and `node -e 0` timed both ways, to show what it costs a call.
 *
 * Medians of `runs` runs each. Every renderer it starts lives in its own runtime folder and
 * is stopped before it returns.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Artifact } from '../../src/core/artifact.js';
import { openTemplatePage, renderOnTemplatePage } from '../../src/core/render/template-page.js';
import { startChromium } from '../lib/browser.js';
import { BIN, invoiceProps, ROOT } from '../lib/invoice.js';
import { rendererStatus } from '../lib/renderer-status.js';
import { percentile } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

const REFERENCE = path.join(ROOT, 'bench', 'lib', 'reference-one-shot.mjs');

function timed(command: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(command, args, { env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${run.status}):\n${run.stderr}`);
  return ms;
}

const median = (runs: number, once: () => number) => percentile(Array.from({ length: runs }, once), 50);

/** The invoice as the page shows it once rendered: its DOM and styles, its scripts removed. */
async function invoiceHtml(artifact: Artifact, props: unknown): Promise<string> {
  const browser = await startChromium();
  try {
    const page = await openTemplatePage(await browser.newPage(), artifact, 30_000);
    if ((await renderOnTemplatePage(page, props, {})) === 'dirty') throw new Error('a fresh page reported dirty');
    return (await page.page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '');
  } finally {
    await browser.close();
  }
}

export interface OneShotFigures {
  runs: number;
  loopCount: number;
  referenceMs: number;
  coldMs: number;
  warmMs: number;
  loopWarmMs: number;
  loopInProcessMs: number;
  versionMs: number;
  nodeMs: number;
  /** Calls the renderer took whole (its thin path, docs/renderer.md) of the warm runs and of the loop with it; the others loaded the whole CLI. */
  nailed: { warm: number; loop: number };
  /** When the environment sets NODE_EXTRA_CA_CERTS: the loop and `node -e 0` without it. */
  withoutExtraCaCerts?: { loopWarmMs: number; loopInProcessMs: number; nodeMs: number };
}

export async function oneShotSection(dataDir: string, work: string, artifact: Artifact, runs: number, loopCount: number): Promise<OneShotFigures> {
  const env: NodeJS.ProcessEnv = { ...process.env, IMPRINT_DATA_DIR: dataDir, IMPRINT_RUNTIME_DIR: path.join(work, 'run'), IMPRINT_RENDERER: 'on', IMPRINT_RENDERER_IDLE: '10m', CI: 'true' };
  const props = path.join(work, 'one-shot-props.json');
  fs.writeFileSync(props, JSON.stringify(invoiceProps(1)));
  const html = path.join(work, 'invoice.html');
  fs.writeFileSync(html, await invoiceHtml(artifact, invoiceProps(1)));
  const out = path.join(work, 'one-shot.pdf');
  const render = [BIN, 'render', 'invoice', '--embedded', '--props', props, '-o', out, ...tagging.cliArgs];
  const stop = () => spawnSync(process.execPath, [BIN, 'renderer', 'stop', '--all'], { env, encoding: 'utf8' });
  stop();
  try {
    const referenceMs = median(runs, () => timed(process.execPath, [REFERENCE, html, out], env));
    const coldMs = median(runs, () => {
      stop();
      return timed(process.execPath, render, env);
    });
    stop();
    timed(process.execPath, render, env); // starts the renderer and warms its page
    const beforeWarm = rendererStatus(env).nailed;
    const warmMs = median(runs, () => timed(process.execPath, render, env));
    const afterWarm = rendererStatus(env).nailed;
    checkUntagged(out, 'the warm one-shot');
    const loopDir = path.join(work, 'loop');
    fs.mkdirSync(loopDir, { recursive: true });
    const loop = (extra: string, loopEnv = env) => {
      const ms = timed('sh', ['-c', `i=0; while [ $i -lt ${loopCount} ]; do i=$((i+1)); "$0" "$1" render invoice --embedded ${[...tagging.cliArgs, extra].join(' ')} --props "$2" -o "$3/$i.pdf" || exit 1; done`, process.execPath, BIN, props, loopDir], loopEnv);
      checkUntagged(path.join(loopDir, `${loopCount}.pdf`), `the shell loop${extra ? ` (${extra})` : ''}`);
      return ms;
    };
    const loopWarmMs = loop('');
    const nailed = { warm: afterWarm - beforeWarm, loop: rendererStatus(env).nailed - afterWarm };
    const loopInProcessMs = loop('--no-renderer');
    const versionMs = median(runs, () => timed(process.execPath, [BIN, '--version'], env));
    const nodeMs = median(runs, () => timed(process.execPath, ['-e', '0'], env));
    const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...envWithout } = env;
    const withoutExtraCaCerts =
      extraCaCerts === undefined
        ? undefined
        : { loopWarmMs: loop('', envWithout), loopInProcessMs: loop('--no-renderer', envWithout), nodeMs: median(runs, () => timed(process.execPath, ['-e', '0'], envWithout)) };
    return { runs, loopCount, referenceMs, coldMs, warmMs, loopWarmMs, loopInProcessMs, versionMs, nodeMs, nailed, withoutExtraCaCerts };
  } finally {
    stop();
  }
}

export function describeOneShot(f: OneShotFigures, check: (ok: boolean) => string): string[] {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)} x`;
  return [
    `one-shot (medians of ${f.runs}; loop of ${f.loopCount}):`,
    `  reference (puppeteer-core script, a whole process): ${ms(f.referenceMs)}`,
    `  cold imprint render (starts the renderer):         ${ms(f.coldMs)}  = ${ratio(f.coldMs, f.referenceMs)} reference  (target <= 1.0 x) ${check(f.coldMs <= f.referenceMs)}`,
    `  warm imprint render (renderer running):            ${ms(f.warmMs)}  = ${ratio(f.warmMs, f.referenceMs)} reference  (target <= 0.2 x) ${check(f.warmMs <= 0.2 * f.referenceMs)}`,
    `  loop of ${f.loopCount}: with the renderer ${ms(f.loopWarmMs)}, --no-renderer ${ms(f.loopInProcessMs)}: ${ratio(f.loopInProcessMs, f.loopWarmMs)} faster  (target >= 6 x) ${check(f.loopInProcessMs >= 6 * f.loopWarmMs)}`,
    `  taken whole by the renderer (its thin path): ${f.nailed.warm} of ${f.runs} warm calls, ${f.nailed.loop} of ${f.loopCount} in the loop${f.nailed.warm + f.nailed.loop < f.runs + f.loopCount ? '; the others loaded the whole CLI (docs/renderer.md: a flag outside the common form)' : ''}`,
    `  imprint --version ${ms(f.versionMs)} vs node -e 0 ${ms(f.nodeMs)}: ${ratio(f.versionMs, f.nodeMs)}  (target <= 2 x) ${check(f.versionMs <= 2 * f.nodeMs)}`,
    ...(f.withoutExtraCaCerts
      ? [
          `  this environment sets NODE_EXTRA_CA_CERTS, which every Node process parses as it starts: node -e 0 ${ms(f.nodeMs)} with it, ${ms(f.withoutExtraCaCerts.nodeMs)} without`,
          `  loop of ${f.loopCount} without it: with the renderer ${ms(f.withoutExtraCaCerts.loopWarmMs)}, --no-renderer ${ms(f.withoutExtraCaCerts.loopInProcessMs)}: ${ratio(f.withoutExtraCaCerts.loopInProcessMs, f.withoutExtraCaCerts.loopWarmMs)} faster`,
        ]
      : []),
  ];
}
