/**
 * `npx tsx bench/job-path.ts [--rows N] [--render-ms M] [--slots S]`: the job path's own cost,
 * without Chromium. The service's job code (core/jobs: the table queue, runRow, the store's
 * job calls, issueFile; the template version is pinned at submit, resolved once per job) runs
 * N rows of one job of the invoice template on SQLite and on a throwaway PostgreSQL cluster,
 * each row's "render" a timer of M ms (no CPU), S slots. Printed per store: rows/s, the ms a
 * row adds to M (slot idle time), the CPU per row of this process and of PostgreSQL's
 * processes (bench/lib/postgres-cpu.ts), and, on PostgreSQL, the round trips to the server per row by
 * the store call that made them (the profile that says where the job row's time goes on a
 * loaded machine, where each round trip waits for the server's process to be scheduled).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createJobs } from '../src/core/jobs/jobs.js';
import { createTableQueue } from '../src/core/jobs/table-queue.js';
import { serviceUrls } from '../src/server/urls.js';
import { openStoreAt } from '../src/core/store/open-store.js';
import type { Store } from '../src/core/store/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { encodeArtifact } from '../src/core/artifact.js';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { INVOICE } from './lib/invoice.js';
import { watchPostgres } from './lib/postgres-cpu.js';

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = flag('--rows', 300);
const RENDER_MS = flag('--render-ms', 40);
const SLOTS = flag('--slots', 2);
const PDF = Buffer.alloc(30_000, 7);

/** Round trips by the store call that sent them (its async context: exact however calls overlap). */
const trips = new Map<string, number>();
const phase = new AsyncLocalStorage<string>();
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const name = phase.getStore() ?? 'other';
  trips.set(name, (trips.get(name) ?? 0) + 1);
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof originalQuery;

/** Wraps each store call so the queries it sends are counted under its name (the outermost call's, when one calls another). */
function marked<T extends object>(target: T, prefix: string): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = () => (value as (...a: unknown[]) => unknown).apply(object, args);
        return phase.getStore() === undefined ? phase.run(`${prefix}${String(key)}`, call) : call();
      };
    },
  });
}

async function run(store: Store, label: string, databaseUrl?: string) {
  const team = await store.ensureTeam('bench', 1_000_000);
  await store.publishTemplate(team.id, 'invoice', artifactBytes, { sourceName: 'invoice.tsx' });
  const jobStore = marked(store.jobs, 'jobs.');
  const markedStore = marked(store, 'store.');
  const queue = createTableQueue({ jobs: jobStore, slots: SLOTS, leaseMs: 60_000, onError: (error) => console.error(error) });
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  let done = 0;
  const jobs = createJobs({
    store: markedStore,
    jobs: jobStore,
    queue,
    renderer: {
      // As the service's engine: the version the job pinned, rendered without a store call.
      renderPinned: async () => {
        await new Promise((resolve) => setTimeout(resolve, RENDER_MS));
        return PDF;
      },
      generatePdf: async () => PDF,
    },
    checkRenderUrl: async (url) => url,
    urlTtlMs: 3_600_000,
    urls: serviceUrls(() => 'http://127.0.0.1:1/'),
    onRow: () => {
      if (++done === ROWS) finished();
    },
  });
  // --warm N: N connections opened before the watch (the pool as a service that has run a while holds them).
  if (databaseUrl) await Promise.all(Array.from({ length: flag('--warm', 0) }, () => store.jobs.queueDepth()));
  trips.clear();
  await queue.start({ row: (claim, rendered) => jobs.runRow(claim, rendered), webhook: (due) => jobs.deliverWebhook(due) });
  const server = databaseUrl ? watchPostgres(databaseUrl) : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await jobs.submit(team, { template: 'invoice', rows: Array.from({ length: ROWS }, (_, n) => ({ n })) });
  await allDone;
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const serverCpu = server?.stop();
  await queue.stop();
  const perRow = (ms * SLOTS) / ROWS;
  console.log(`${label}: ${ROWS} rows in ${ms.toFixed(0)} ms, ${((ROWS * 1000) / ms).toFixed(1)} rows/s; a row takes ${perRow.toFixed(1)} ms of its slot, ${(perRow - RENDER_MS).toFixed(1)} ms more than its render (${RENDER_MS} ms)`);
  console.log(`  CPU per row: this Node ${((used.user + used.system) / 1000 / ROWS).toFixed(2)} ms${serverCpu === undefined ? '' : `, PostgreSQL's processes ${(serverCpu.ms / ROWS).toFixed(2)} ms (${Object.entries(serverCpu.byKind).filter(([, ms]) => ms > 0).map(([kind, ms]) => `${kind} ${(ms / ROWS).toFixed(2)}`).join(', ')}; ${serverCpu.started} processes started)`}`);
  if (trips.size) {
    const total = [...trips.values()].reduce((a, b) => a + b, 0);
    console.log(`  round trips per row: ${(total / ROWS).toFixed(1)}: ${[...trips].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${(n / ROWS).toFixed(2)}`).join(', ')}`);
  }
}

const artifactBytes = encodeArtifact((await bundleTemplate(INVOICE)).artifact);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-job-path-'));
console.log(`job path, ${ROWS} rows, render ${RENDER_MS} ms (a timer), ${SLOTS} slots; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const cluster = await startPostgres();
try {
  for (let round = 0; round < flag('--repeat', 1); round++) {
    const sqlite = await openStoreAt({ dataDir: path.join(work, `sqlite-${round}`) });
    await run(sqlite, 'SQLite    ').finally(() => sqlite.close());
    const databaseUrl = await cluster.createDatabase();
    const postgres = await openStoreAt({ dataDir: path.join(work, `pg-${round}`), databaseUrl });
    await run(postgres, 'PostgreSQL', databaseUrl).finally(() => postgres.close());
  }
} finally {
  await cluster.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
