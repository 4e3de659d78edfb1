/**
 * `npx tsx bench/job-profile.ts [--docs 200] [--postgres] [--bin <build>/bin/imprint.js] [--cli <build>/bin/imprint.js] [--prof <dir>] [--detach]`:
 * where a job row's time goes, against the embedded batch's. Runs the embedded batch, then one
 * job of the same invoices through `imprint serve` (the build given, default this checkout's)
 * and this checkout's CLI, and reports each process's CPU per document from /proc: the CLI's
 * Node, the service's Node, the Chromium processes under each, and with `--postgres` the
 * cluster's processes (bench/lib/postgres-cpu.ts). `--prof <dir>` also writes
 * `--cpu-prof` profiles of the service and both CLIs there (open them in Chrome's DevTools).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeArtifact } from '../src/core/artifact.js';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { openStore } from '../src/core/store/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { BIN, INVOICE, invoiceProps } from './lib/invoice.js';
import { publishBenchInvoice, startServe } from './scenarios/service.js';
import { openStoreAt } from '../src/core/store/open-store.js';
import { watchPostgres } from './lib/postgres-cpu.js';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const DOCS = Number(arg('--docs') ?? 200);
const serveBin = arg('--bin') ?? BIN;
/** The CLI of the job (and of the batch): this checkout's, or another build's for an A/B of the whole path. */
const cliBin = arg('--cli') ?? BIN;
const profDir = arg('--prof');
const postgres = process.argv.includes('--postgres');
const detach = process.argv.includes('--detach');
const TICK = 100; // USER_HZ on Linux: /proc's clock ticks per second
const say = (line = '') => process.stdout.write(`${line}\n`);

/** CPU ms of a process, and the pids of its children, from /proc. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK;
  } catch {
    return NaN;
  }
}
function descendants(pid: number): number[] {
  const all: number[] = [];
  const walk = (p: number) => {
    let kids: string[] = [];
    try {
      kids = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return;
    }
    for (const kid of kids.map(Number)) {
      all.push(kid);
      walk(kid);
    }
  };
  walk(pid);
  return all;
}

/** Samples the CPU of `pid` and its descendants every 50 ms, so children that exit are still counted (their last sample). */
function watchTree(pid: number) {
  const last = new Map<number, number>();
  const first = new Map<number, number>();
  const sample = () => {
    for (const p of [pid, ...descendants(pid)]) {
      const cpu = cpuOf(p);
      if (Number.isNaN(cpu)) continue;
      if (!first.has(p)) first.set(p, cpu);
      last.set(p, cpu);
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    /** CPU used since the watch began: the process itself and its descendants. */
    stop(countFromZero: boolean) {
      sample();
      clearInterval(timer);
      let self = 0;
      let tree = 0;
      for (const [p, cpu] of last) {
        const used = cpu - (countFromZero && p !== pid ? 0 : first.get(p)!);
        if (p === pid) self = used;
        else tree += used;
      }
      return { self, children: tree };
    },
  };
}

function run(args: string[], env: NodeJS.ProcessEnv, watch: boolean) {
  return new Promise<{ wallMs: number; self: number; children: number }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []), cliBin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const watcher = watch ? watchTree(child.pid!) : undefined;
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The CLI's own CPU is its last sample, up to 50 ms before it exits.
    child.on('error', reject);
    child.on('exit', (status) => {
      const wallMs = performance.now() - started;
      const used = watcher?.stop(true) ?? { self: NaN, children: NaN };
      if (status !== 0) reject(new Error(`exit ${status}: ${stderr}`));
      else resolve({ wallMs, ...used });
    });
  });
}

/** CPU ms of a process's main thread (the event loop) and of its other threads (libuv's pool: file writes and fsyncs; V8's: GC, compiling), of those alive now. */
function threadsOf(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main thread' : 'other threads';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK);
    } catch {
      // the thread ended
    }
  }
  return byName;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-job-profile-'));
const rows = path.join(work, 'rows.jsonl');
fs.writeFileSync(rows, Array.from({ length: DOCS }, (_, n) => JSON.stringify(invoiceProps(n))).join('\n'));
const { artifact } = await bundleTemplate(INVOICE);
const batchData = path.join(work, 'batch-data');
{
  const store = openStore({ dataDir: batchData });
  await store.publishTemplate((await store.ensureTeam('local')).id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  await store.close();
}
const per = (ms: number) => (ms / DOCS).toFixed(2);
say(`job profile: ${DOCS} docs, serve ${serveBin}, ${postgres ? 'PostgreSQL' : 'SQLite'}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const batchRun = await run(['render', 'invoice', '--embedded', '--batch', rows, '--out-dir', path.join(work, 'batch-out'), '--concurrency', String(os.availableParallelism())], { ...process.env, IMPRINT_DATA_DIR: batchData, CI: 'true' }, true);
say(`batch: ${(DOCS / (batchRun.wallMs / 1000)).toFixed(1)} docs/s; CPU ms/doc: CLI node ${per(batchRun.self)}, its Chromium ${per(batchRun.children)}`);

const cluster = postgres ? await startPostgres() : undefined;
try {
  const databaseUrl = cluster ? await cluster.createDatabase() : undefined;
  const dataDir = path.join(work, 'job-data');
  const key = await publishBenchInvoice(await openStoreAt({ dataDir, databaseUrl }), artifact);
  const { child, url } = await startServe(dataDir, { databaseUrl, bin: serveBin, nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [] }, ['--concurrency', String(os.availableParallelism())]);
  try {
    const serveWatch = watchTree(child.pid!);
    const serverWatch = databaseUrl ? watchPostgres(databaseUrl) : undefined;
    const threadsBefore = threadsOf(child.pid!);
    const jobStarted = performance.now();
    const jobRun = await run(['render', 'invoice', '--batch', rows, '--out-dir', path.join(work, 'job-out'), ...(detach ? ['--detach'] : [])], { ...process.env, CI: 'true', IMPRINT_API_URL: url, IMPRINT_API_KEY: key, IMPRINT_CONFIG_DIR: path.join(work, 'config') }, true);
    if (detach) {
      // --detach: the CLI submitted and left; the job is watched here, once a second, without downloads.
      for (;;) {
        const status = (await (await fetch(`${url}/api/jobs`, { headers: { authorization: `Bearer ${key}` } })).json()) as { jobs: { status: string }[] };
        if (['completed', 'failed', 'cancelled'].includes(status.jobs[0].status)) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      jobRun.wallMs = performance.now() - jobStarted;
    }
    const served = serveWatch.stop(false);
    const server = serverWatch?.stop();
    const threads = [...threadsOf(child.pid!)].map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0);
    const [last] = ((await (await fetch(`${url}/api/jobs?limit=1`, { headers: { authorization: `Bearer ${key}` } })).json()) as { jobs: { createdAt: string; finishedAt: string }[] }).jobs;
    const spanMs = Date.parse(last.finishedAt) - Date.parse(last.createdAt);
    say(`job:   ${(DOCS / (jobRun.wallMs / 1000)).toFixed(1)} docs/s; CPU ms/doc: CLI node ${per(jobRun.self)}, service node ${per(served.self)}, service Chromium ${per(served.children)}${server === undefined ? '' : `, PostgreSQL's processes ${per(server.ms)} (${Object.entries(server.byKind).filter(([, ms]) => ms > 0).map(([kind, ms]) => `${kind} ${per(ms)}`).join(', ')}; ${server.started} processes started)`}`);
    say(`       the service's Node by thread: ${threads.map(([name, ms]) => `${name} ${per(ms)}`).join(', ')}`);
    say(`       the CLI's run ${Math.round(jobRun.wallMs)} ms; the job from submit to its last row ${spanMs} ms (${(DOCS / (spanMs / 1000)).toFixed(1)} docs/s)`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
} finally {
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
