/**
 * 5. `imprint render invoice --no-renderer` one-shot, cold: a new process every time, in-process, wall time from spawn
 * to exit; and where that time goes (Node itself, loading the CLI, starting Chromium).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startChromium } from '../lib/browser.js';
import { BIN, invoiceProps } from '../lib/invoice.js';
import { percentile, type Measured } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

function timeRun(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${run.status}):\n${run.stderr}`);
  return ms;
}

export interface ColdBreakdown {
  nodeMs: number;
  cliLoadMs: number;
  chromiumLaunchMs: number;
}

export async function oneShot(dataDir: string, work: string, runs: number): Promise<{ measured: Measured; breakdown: ColdBreakdown }> {
  const env = { ...process.env, IMPRINT_DATA_DIR: dataDir, CI: 'true' };
  const props = path.join(work, 'one-shot-props.json');
  fs.writeFileSync(props, JSON.stringify(invoiceProps(1)));
  const out = path.join(work, 'one-shot.pdf');
  const latencies = Array.from({ length: runs }, () => timeRun([BIN, 'render', 'invoice', '--embedded', '--no-renderer', '--props', props, '-o', out, ...tagging.cliArgs], env));
  checkUntagged(out, 'the cold one-shot');
  const median = (f: () => number) => percentile(Array.from({ length: runs }, f), 50);
  const launches: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const browser = await startChromium();
    launches.push(performance.now() - t);
    await browser.close();
  }
  return {
    measured: { name: '5 imprint render <id> one-shot, cold', docs: runs, wallMs: latencies.reduce((a, b) => a + b, 0), latenciesMs: latencies, concurrency: 1, note: 'new process each' },
    breakdown: {
      nodeMs: median(() => timeRun(['-e', '0'], env)),
      cliLoadMs: median(() => timeRun([BIN, '--version'], env)),
      chromiumLaunchMs: percentile(launches, 50),
    },
  };
}
