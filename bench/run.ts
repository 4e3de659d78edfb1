/**
 * `npm run bench [-- --quick]`: the speed of Imprint against its targets (issue 4), on the
 * example invoice with different props per document. Not a test: it measures and prints.
 *
 *   1 floor    printToPDF alone on loaded pages, at the batch's concurrency
 *   2 naive    launch Chromium, render, close, for every document
 *   3 batch    imprint render --batch, embedded, start to exit
 *   4 service  imprint serve under two parallel clients (skipped without src/server)
 *   4b         the same on PostgreSQL against SQLite, alternating, with their ratio
 *   5 one-shot imprint render <id>, a new process each time
 *   6 memory   the process tree over many renders
 *   7 job      the batch's invoices through one job on imprint serve (render --batch in remote
 *              mode), against the batch (3) in the same run; and the HTTP requests it took
 *   one-shot   per-call cost against a hand-written puppeteer-core script: cold, warm (the
 *              renderer), a shell loop, --version (scenarios/one-shot-renderer.ts)
 *   local-file a loop of renders of a local .tsx against the published id, the renderer warm
 *              (scenarios/local-file-loop.ts; `--only local-file`, `--loop N` calls each)
 *
 * `--only service` runs the floor, the service (4) and the floor again (the service's p50 against
 * the floor's). `--only service-postgres` runs 4b alone. `--only job` runs the batch (3) and the job (7) alone. `--only batch` runs the floor, the batch, the floor again and the naive loop (the batch's two ratios). `--only one-shot` runs that section alone; `--runs N` (default 20) and `--loop N` (default
 * 100) set its medians' runs and its loop's length.
 *
 * `--no-tagged` (with any of the above) prints every row of Imprint's untagged, to set this build's
 * rows beside a build from before tags became the default (issue 40 against issue 38; lib/tagging.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../test/helpers/postgres.js';
import { ROOT } from './lib/invoice.js';
import { publishInvoice } from './lib/published-invoice.js';
import { docsPerSecond, formatRow, HEADER, percentile, type Measured } from './lib/stats.js';
import { tagging } from './lib/tagging.js';
import { batch } from './scenarios/batch.js';
import { floor } from './scenarios/floor.js';
import { job, type JobRun } from './scenarios/job.js';
import { memory, WINDOW } from './scenarios/memory.js';
import { naive } from './scenarios/naive.js';
import { oneShot } from './scenarios/one-shot.js';
import { describeOneShot, oneShotSection } from './scenarios/one-shot-renderer.js';
import { describeLocalFile, localFileLoop } from './scenarios/local-file-loop.js';
import { service, serverAvailable } from './scenarios/service.js';
import { describeStoreComparison, servicePostgres, type StoreComparison } from './scenarios/service-postgres.js';

const quick = process.argv.includes('--quick');
const flagValue = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number above 0`);
  return value;
};
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const ONE_SHOT = { runs: flagValue('--runs', quick ? 5 : 20), loop: flagValue('--loop', quick ? 20 : 100) };
const COUNTS = quick
  ? { floor: 100, naive: 4, batch: 200, service: 100, oneShot: 3, memory: 600 }
  : { floor: 300, naive: 15, batch: 1000, service: 400, oneShot: 5, memory: 2000 };
const concurrency = os.availableParallelism();

const say = (line = '') => process.stdout.write(`${line}\n`);
const check = (ok: boolean) => (ok ? 'met' : 'NOT MET');

function machine(): string {
  const chromium = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout.trim().split('\n')[0] ?? 'unknown';
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  return `${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length} (availableParallelism ${concurrency}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromium}, load average ${load}`;
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('Build the CLI first: npm run build');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-'));
  const dataDir = path.join(work, 'data');
  say(`Imprint benchmark${quick ? ' (--quick)' : ''}`);
  say(`machine: ${machine()}`);
  say(`PDFs: ${tagging.label}`);
  say();

  const artifact = await publishInvoice(dataDir);

  if (only === 'one-shot') {
    for (const line of describeOneShot(await oneShotSection(dataDir, work, artifact, ONE_SHOT.runs, ONE_SHOT.loop), check)) say(line);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only === 'local-file') {
    for (const line of describeLocalFile(localFileLoop(dataDir, work, ONE_SHOT.loop), check)) say(line);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only === 'service-postgres') {
    say(HEADER);
    const runs = await servicePostgres(work, artifact, COUNTS.service, (row) => say(formatRow(row)));
    say();
    for (const line of describeStoreComparison(runs, check)) say(line);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only === 'job') {
    say(HEADER);
    const batchRun = batch(dataDir, work, COUNTS.batch, concurrency);
    say(formatRow(batchRun));
    for (const line of describeJobs(batchRun, await jobRuns(work, artifact))) say(line);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only === 'batch') {
    // The batch's two ratios alone (floor, batch, floor again, naive), for before/after pairs.
    say(HEADER);
    const floorBefore = floor(artifact, COUNTS.floor, concurrency);
    const before = await floorBefore;
    say(formatRow(before));
    const batchRun = batch(dataDir, work, COUNTS.batch, concurrency);
    say(formatRow(batchRun));
    const after = await floor(artifact, COUNTS.floor, concurrency, '1 floor again, after the batch');
    say(formatRow(after));
    const naiveRun = await naive(artifact, COUNTS.naive);
    say(formatRow(naiveRun));
    const floorRate = Math.max(docsPerSecond(before), docsPerSecond(after));
    say(`  batch >= 0.85 x floor:    ${(docsPerSecond(batchRun) / floorRate).toFixed(2)} x  ${check(docsPerSecond(batchRun) >= 0.85 * floorRate)}`);
    say(`  batch >= 15 x naive:      ${(docsPerSecond(batchRun) / docsPerSecond(naiveRun)).toFixed(1)} x  ${check(docsPerSecond(batchRun) >= 15 * docsPerSecond(naiveRun))}`);
    say(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only === 'service') {
    // The service's p50 against the floor's (scenarios 1 and 4 alone), for before/after pairs:
    // the floor, the service, the floor again; the faster floor is the reference, as in the full run.
    say(HEADER);
    const before = await floor(artifact, COUNTS.floor, concurrency);
    say(formatRow(before));
    const serviceRun = await service(path.join(work, 'service-data'), artifact, COUNTS.service);
    say(formatRow(serviceRun));
    const after = await floor(artifact, COUNTS.floor, concurrency, '1 floor again, after the service');
    say(formatRow(after));
    const floorRun = docsPerSecond(after) > docsPerSecond(before) ? after : before;
    const p50 = percentile(serviceRun.latenciesMs, 50);
    const floorP50 = percentile(floorRun.latenciesMs, 50);
    say(`  service p50 <= floor + 15 ms: ${p50.toFixed(1)} ms vs ${(floorP50 + 15).toFixed(1)} ms  ${check(p50 <= floorP50 + 15)}`);
    say(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  if (only !== undefined) throw new Error(`--only takes one-shot local-file service service-postgres job or batch, not ${only}`);

  const results: Measured[] = [];
  const run = async <T extends Measured>(label: string, work: () => Promise<T> | T): Promise<T> => {
    process.stderr.write(`running ${label}...\n`);
    const measured = await work();
    results.push(measured);
    say(formatRow(measured));
    return measured;
  };

  say(HEADER);
  const floorBefore = await run('the floor', () => floor(artifact, COUNTS.floor, concurrency));
  const naiveRun = await run('the naive loop', () => naive(artifact, COUNTS.naive));
  const batchRun = await run('the batch', () => batch(dataDir, work, COUNTS.batch, concurrency));
  // The floor again, right after the batch: on a shared machine the load changes between runs,
  // and the ratio is taken against the faster of the two floors (the stricter comparison).
  const floorAfter = await run('the floor again', () => floor(artifact, COUNTS.floor, concurrency, '1 floor again, after the batch'));
  const floorRun = docsPerSecond(floorAfter) > docsPerSecond(floorBefore) ? floorAfter : floorBefore;
  let serviceRun: Measured | undefined;
  if (serverAvailable()) serviceRun = await run('the service', () => service(path.join(work, 'service-data'), artifact, COUNTS.service));
  else say('4 service: SKIPPED: src/server is not there yet; this scenario runs once it is.');
  let storeRuns: StoreComparison | undefined;
  if (serverAvailable()) {
    process.stderr.write('running the service on PostgreSQL and SQLite...\n');
    storeRuns = await servicePostgres(work, artifact, COUNTS.service, (row) => {
      results.push(row);
      say(formatRow(row));
    });
  }
  let jobs: JobRun[] = [];
  if (serverAvailable()) {
    jobs = await jobRuns(work, artifact);
    results.push(...jobs.map((run) => run.measured));
    for (const run of jobs) say(formatRow(run.measured));
  }
  const cold = await oneShot(dataDir, work, COUNTS.oneShot);
  results.push(cold.measured);
  say(formatRow(cold.measured));
  process.stderr.write('running memory...\n');
  const mem = await memory(path.join(work, 'memory-data'), artifact, COUNTS.memory, concurrency);

  process.stderr.write('running the one-shot section...\n');
  const oneShotFigures = await oneShotSection(dataDir, work, artifact, ONE_SHOT.runs, ONE_SHOT.loop);

  say();
  for (const line of describeOneShot(oneShotFigures, check)) say(line);
  say(`one-shot cold breakdown (medians): node alone ${cold.breakdown.nodeMs.toFixed(0)} ms, CLI loaded (--version) ${cold.breakdown.cliLoadMs.toFixed(0)} ms, Chromium launch ${cold.breakdown.chromiumLaunchMs.toFixed(0)} ms`);
  say(`memory over ${mem.renders} renders (warm-up ${mem.warmUp}): peak per ${WINDOW} renders ${mem.peaksMiB.map((p) => p.toFixed(0)).join(' -> ')} MiB (${mem.growthPercent >= 0 ? '+' : ''}${mem.growthPercent.toFixed(1)}% first to last)`);
  say(`  samples (renders: MiB in all / of it Node): ${mem.samples.map((s) => `${s.renders}: ${s.mib.toFixed(0)}/${s.rootMib.toFixed(0)}`).join(', ')}`);
  say('  (the series rises and falls with garbage collection and replaced pages; a leak would show as climbing peaks)');

  const floorRate = docsPerSecond(floorRun);
  const batchRate = docsPerSecond(batchRun);
  const naiveRate = docsPerSecond(naiveRun);
  const coldMedian = percentile(cold.measured.latenciesMs, 50);
  say();
  say('targets:');
  say(`  batch >= 0.85 x floor:    ${(batchRate / floorRate).toFixed(2)} x  ${check(batchRate >= 0.85 * floorRate)}`);
  say(`  batch >= 15 x naive:      ${(batchRate / naiveRate).toFixed(1)} x  ${check(batchRate >= 15 * naiveRate)}`);
  say(`  one-shot cold <= 0.8 s:   ${(coldMedian / 1000).toFixed(2)} s  ${check(coldMedian <= 800)}`);
  if (serviceRun) {
    const p50 = percentile(serviceRun.latenciesMs, 50);
    const floorP50 = percentile(floorRun.latenciesMs, 50);
    say(`  service p50 <= floor + 15 ms: ${p50.toFixed(1)} ms vs ${(floorP50 + 15).toFixed(1)} ms  ${check(p50 <= floorP50 + 15)}`);
  } else {
    say('  service p50 <= floor + 15 ms: not measured (no server)');
  }
  say(`  memory growth < 15%:      ${mem.growthPercent.toFixed(1)}%  ${check(mem.growthPercent < 15)}`);
  if (storeRuns) for (const line of describeStoreComparison(storeRuns, check)) say(line);
  if (jobs.length) for (const line of describeJobs(batchRun, jobs).slice(jobs.length)) say(line);
  fs.rmSync(work, { recursive: true, force: true });
}

/**
 * The batch's invoices through a job, on a service with the default pool (one slot per core,
 * as many as the embedded batch renders at once) and on one with a slot more, on SQLite; and
 * with the default pool on PostgreSQL (a throwaway cluster), where the job tables are the
 * queue too.
 */
async function jobRuns(work: string, artifact: Parameters<typeof job>[2]): Promise<JobRun[]> {
  const runs: JobRun[] = [];
  for (const poolSize of [concurrency, concurrency + 1]) {
    const label = poolSize === concurrency ? '7 job, service default pool' : `7 job, service pool of ${poolSize}`;
    process.stderr.write(`running the ${label}...\n`);
    const run = await job(path.join(work, `job-data-${poolSize}`), work, artifact, COUNTS.batch, poolSize, label);
    runs.push(run);
  }
  const cluster = await startPostgres();
  try {
    const label = '7 job on PostgreSQL, default pool';
    process.stderr.write(`running the ${label}...\n`);
    runs.push(await job(path.join(work, 'job-data-postgres'), work, artifact, COUNTS.batch, concurrency, label, await cluster.createDatabase()));
  } finally {
    await cluster.stop();
  }
  return runs;
}

/** Each job's row lines, then its ratio to the batch and the requests it took. */
function describeJobs(batchRun: Measured, runs: JobRun[]): string[] {
  const batchRate = docsPerSecond(batchRun);
  return [
    ...runs.map((run) => formatRow(run.measured)),
    ...runs.map((run) => {
      const ratio = docsPerSecond(run.measured) / batchRate;
      const served = Object.entries(run.served).map(([route, n]) => `${route} ${n}`).join(', ');
      return `  ${run.measured.name}: ${ratio.toFixed(2)} x the embedded batch (target >= 0.85 x: ${check(ratio >= 0.85)}); the CLI made ${run.cliRequests} HTTP requests for ${run.measured.docs} documents; the service answered ${served}`;
    }),
  ];
}

await main();
