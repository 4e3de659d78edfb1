/**
 * `npx tsx bench/job-ab.ts --before <other build>/bin/imprint.js [--docs N] [--rounds R]`:
 * the job row (scenario 7) of two builds of the service, A (`--before`) and B (this checkout),
 * on SQLite and on PostgreSQL, against the embedded batch (scenario 3) measured in the same
 * minutes. Each round runs the batch, then the four jobs in an order that rotates from round to
 * round, so a machine whose load drifts (other work on it) weighs on A and B alike; each job is
 * divided by its own round's batch. Printed: every run, then per variant the median ratio and
 * its spread (min-max). A copy of a build: `cp -r dist bin package.json <dir>` and a
 * node_modules link in <dir>.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../test/helpers/postgres.js';
import { BIN } from './lib/invoice.js';
import { publishInvoice } from './lib/published-invoice.js';
import { docsPerSecond } from './lib/stats.js';
import { batch } from './scenarios/batch.js';
import { job } from './scenarios/job.js';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const before = arg('--before');
if (!before || !fs.existsSync(before)) throw new Error('--before takes the bin/imprint.js of the build to compare with');
const DOCS = Number(arg('--docs') ?? 200);
const ROUNDS = Number(arg('--rounds') ?? 3);
const concurrency = os.availableParallelism();
const say = (line = '') => process.stdout.write(`${line}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-job-ab-'));
const dataDir = path.join(work, 'data');
const artifact = await publishInvoice(dataDir);

const variants = [
  { name: 'A SQLite', bin: before, postgres: false },
  { name: 'B SQLite', bin: BIN, postgres: false },
  { name: 'A PostgreSQL', bin: before, postgres: true },
  { name: 'B PostgreSQL', bin: BIN, postgres: true },
];
const ratios = new Map<string, number[]>(variants.map((v) => [v.name, []]));
say(`job A/B: A ${before}, B ${BIN}; ${DOCS} docs, pool ${concurrency}, ${ROUNDS} rounds; load average ${load()}`);
const cluster = await startPostgres();
try {
  for (let round = 0; round < ROUNDS; round++) {
    const batchRun = batch(dataDir, work, DOCS, concurrency);
    const batchRate = docsPerSecond(batchRun);
    say(`round ${round + 1}: batch ${batchRate.toFixed(1)} docs/s (load ${load()})`);
    const order = [...variants.slice(round % variants.length), ...variants.slice(0, round % variants.length)];
    for (const variant of order) {
      const databaseUrl = variant.postgres ? await cluster.createDatabase() : undefined;
      const run = await job(path.join(work, `job-${round}-${variant.name.replace(/\W/g, '')}`), work, artifact, DOCS, concurrency, variant.name, databaseUrl, variant.bin);
      const ratio = docsPerSecond(run.measured) / batchRate;
      ratios.get(variant.name)!.push(ratio);
      say(`  ${variant.name.padEnd(13)} ${docsPerSecond(run.measured).toFixed(1)} docs/s, ${ratio.toFixed(2)} x the batch`);
    }
  }
} finally {
  await cluster.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
say();
for (const [name, values] of ratios) {
  say(`${name.padEnd(13)} median ${median(values).toFixed(2)} x the batch (min ${Math.min(...values).toFixed(2)}, max ${Math.max(...values).toFixed(2)}; ${values.map((v) => v.toFixed(2)).join(' ')})`);
}
say(`load average at the end: ${load()}`);
