/**
 * `npx tsx bench/profile-warm-call.ts [runs]`: where a warm `imprint render invoice` call's
 * time goes. Needs IMPRINT_DATA_DIR with the invoice published (`imprint publish
 * templates-example/invoice/Invoice.tsx --id invoice`) and a built CLI; it starts the renderer
 * for that folder (stopping one that runs, so that it logs its phases) and leaves it to idle
 * out. Medians (and min-max) of `runs`:
 *
 *   node -e 0          Node starting and exiting, nothing loaded
 *   warm call          `node bin/imprint.js render invoice --props p.json -o x.pdf` (spawn to exit:
 *                      the nail path, or the thin path in a build without it)
 *   full CLI           the same through dist/cli.js directly (the CLI program loaded first)
 *   connect + hello    from this process: the socket and the handshake
 *   render request     from this process: the request sent to the answer read (the renderer's
 *                      work: template lookup, props check, the page's render, the print, the finish)
 *   renderer: ...      the warm calls' phases in the renderer, from its log (IMPRINT_RENDERER_TIMING,
 *                      nail-timing.ts): the call checked and its props read, a render slot, the
 *                      render in the page, Chromium's print, the finish, the file written
 *
 * When the environment sets NODE_EXTRA_CA_CERTS (this machine does), `node -e 0` and the warm
 * call are also timed without it: Node parses that bundle in every process it starts, before
 * any script, which no program it runs can skip.
 *
 * and the CPU time (user + system) of each spawned process, and of the renderer's whole process
 * tree (its Node, Chromium's processes, the print compositors they reaped) during the warm
 * calls. Not a test: it measures and prints.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserSettings } from '../src/backend/browser-settings.js';
import { resolveDataDir } from '../src/backend/data-dir.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../src/core/render/deadline.js';
import { connectRunningRenderer } from '../src/cli/renderer/client/renderer-client.js';
import { parseNailTiming } from '../src/cli/renderer/process/nail-timing.js';
import { rendererTargetFrom } from '../src/cli/renderer/renderer-target.js';
import { BIN, ROOT } from './lib/invoice.js';
import { treeCpuMs } from './lib/tree-cpu.js';

const runs = Number(process.argv[2] ?? 15);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-warm-call-'));
const propsFile = path.join(work, 'p.json');
fs.copyFileSync(path.join(ROOT, 'templates-example', 'invoice', 'props.json'), propsFile);
const out = path.join(work, 'x.pdf');
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', IMPRINT_RENDERER_TIMING: '1' };
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...envWithoutCaCerts } = env;

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms (${sorted[0].toFixed(1)}-${sorted[sorted.length - 1].toFixed(1)})`;
};

/** CPU time of this process's reaped children so far (cutime + cstime of /proc/self/stat, 10 ms ticks). */
function childrenCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Wall and CPU of one child process, from spawn to exit. */
function spawnTimed(args: string[], withEnv: NodeJS.ProcessEnv = env): { wall: number; cpu: number } {
  const cpu = childrenCpuMs();
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env: withEnv, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  return { wall, cpu: childrenCpuMs() - cpu };
}

// The renderer for these settings, started afresh by the first call so that it logs its phases.
spawnSync(process.execPath, [BIN, 'renderer', 'stop'], { env, stdio: 'inherit' });
spawnSync(process.execPath, [BIN, 'render', 'invoice', '--props', propsFile, '-o', out], { env, stdio: 'inherit' });

const target = rendererTargetFrom({
  dataDir: resolveDataDir({}, env),
  browser: browserSettings(undefined, env),
  allowLocal: false,
  renderTimeoutMs: DEFAULT_RENDER_TIMEOUT_MS,
  build: String(fs.statSync(path.join(ROOT, 'dist', 'cli.js')).mtimeMs),
  env,
});
const props = JSON.parse(fs.readFileSync(propsFile, 'utf8'));

const WITHOUT = ' without NODE_EXTRA_CA_CERTS';
const figures: Record<string, number[]> = { 'node -e 0': [], 'warm call': [], 'full CLI': [], 'connect + hello': [], 'render request': [] };
const cpu: Record<string, number> = { 'node -e 0': 0, 'warm call': 0, 'full CLI': 0 };
if (extraCaCerts !== undefined) {
  for (const name of ['node -e 0', 'warm call']) {
    figures[name + WITHOUT] = [];
    cpu[name + WITHOUT] = 0;
  }
}
const logStart = fs.statSync(target.spec.paths.log).size;
const rendererPid = (await connectRunningRenderer(target.spec).then((connection) => {
  connection?.close();
  return connection?.status.pid;
}))!;
let rendererCpu = 0;
const spawned = (name: string, args: string[], withEnv: NodeJS.ProcessEnv = env) => {
  const { wall, cpu: used } = spawnTimed(args, withEnv);
  figures[name].push(wall);
  cpu[name] += used;
};
for (let i = 0; i < runs; i++) {
  spawned('node -e 0', ['-e', '0']);
  const before = treeCpuMs(rendererPid);
  spawned('warm call', [BIN, 'render', 'invoice', '--props', propsFile, '-o', out]);
  rendererCpu += treeCpuMs(rendererPid) - before;
  if (extraCaCerts !== undefined) {
    spawned('node -e 0' + WITHOUT, ['-e', '0'], envWithoutCaCerts);
    spawned('warm call' + WITHOUT, [BIN, 'render', 'invoice', '--props', propsFile, '-o', out], envWithoutCaCerts);
  }
  spawned('full CLI', [path.join(ROOT, 'dist', 'cli.js'), 'render', 'invoice', '--props', propsFile, '-o', out]);
  const t0 = performance.now();
  const connection = await connectRunningRenderer(target.spec);
  if (!connection) throw new Error('no renderer answered for these settings');
  const t1 = performance.now();
  await connection.render({ type: 'render', ref: 'invoice', props, options: { format: 'pdf' } });
  const t2 = performance.now();
  connection.close();
  figures['connect + hello'].push(t1 - t0);
  figures['render request'].push(t2 - t1);
}
process.stdout.write(`${runs} runs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; medians (min-max)\n`);
for (const [name, values] of Object.entries(figures)) {
  const used = name in cpu ? `, CPU ${(cpu[name] / runs).toFixed(0)} ms a process (user + system, mean)` : '';
  process.stdout.write(`  ${name.padEnd(Math.max(...Object.keys(figures).map((key) => key.length)))} ${stats(values)}${used}\n`);
}
// The warm calls' phases, as the renderer logged them (the full CLI's and this process's requests are not nail calls: they log none).
const log = fs.readFileSync(target.spec.paths.log, 'utf8').slice(logStart);
const phases = new Map<string, number[]>();
for (const line of log.split('\n')) {
  for (const [name, ms] of Object.entries(parseNailTiming(line) ?? {})) phases.set(name, [...(phases.get(name) ?? []), ms]);
}
if (phases.size === 0) throw new Error(`the renderer logged no phases in ${target.spec.paths.log}: was the warm call declined by the nail path?`);
for (const [name, values] of phases) process.stdout.write(`  renderer: ${name.padEnd(6)} ${stats(values)}\n`);
process.stdout.write(`  renderer's process tree during a warm call: CPU ${(rendererCpu / runs).toFixed(0)} ms a call (mean; its Node, Chromium, the print compositors)\n`);
fs.rmSync(work, { recursive: true, force: true });
