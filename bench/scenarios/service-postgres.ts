/**
 * 4b. The service on PostgreSQL against the default (SQLite in the data folder), in the same
 * run on the same machine: scenario 4 (two clients, POST /api/documents/invoice) against a
 * node started with `--database` on a throwaway PostgreSQL cluster (test/helpers/postgres.ts),
 * and against a node on SQLite. Each renders one reservation, one commit and the API key's
 * lookup per request through its store; the rest is the same. The two alternate (SQLite,
 * PostgreSQL, PostgreSQL, SQLite) so a change in the machine's load meets both, and each is
 * judged by its better run.
 */
import path from 'node:path';
import type { Artifact } from '../../src/core/artifact.js';
import { startPostgres } from '../../test/helpers/postgres.js';
import { docsPerSecond, percentile, type Measured } from '../lib/stats.js';
import { service } from './service.js';

export interface StoreComparison {
  sqlite: Measured[];
  postgres: Measured[];
}

export async function servicePostgres(work: string, artifact: Artifact, docs: number, onRow: (row: Measured) => void): Promise<StoreComparison> {
  const cluster = await startPostgres();
  const runs: StoreComparison = { sqlite: [], postgres: [] };
  try {
    const order = ['sqlite', 'postgres', 'postgres', 'sqlite'] as const;
    for (const [i, store] of order.entries()) {
      const dataDir = path.join(work, `service-${store}-${i}`);
      const measured =
        store === 'sqlite'
          ? await service(dataDir, artifact, docs, { name: '4b service on SQLite (default)' })
          : await service(dataDir, artifact, docs, { databaseUrl: await cluster.createDatabase(), name: '4b service on PostgreSQL' });
      runs[store].push(measured);
      onRow(measured);
    }
  } finally {
    await cluster.stop();
  }
  return runs;
}

const best = (runs: Measured[]) => runs.reduce((a, b) => (docsPerSecond(b) > docsPerSecond(a) ? b : a));

/** The comparison's lines: each store's better run, and PostgreSQL against SQLite. */
export function describeStoreComparison(runs: StoreComparison, check: (ok: boolean) => string): string[] {
  const sqlite = best(runs.sqlite);
  const postgres = best(runs.postgres);
  const rate = docsPerSecond(postgres) / docsPerSecond(sqlite);
  const p50 = percentile(postgres.latenciesMs, 50) / percentile(sqlite.latenciesMs, 50);
  return [
    `service on PostgreSQL vs SQLite (better of ${runs.sqlite.length} runs each, same run, same machine):`,
    `  SQLite:     ${docsPerSecond(sqlite).toFixed(1)} docs/s, p50 ${percentile(sqlite.latenciesMs, 50).toFixed(1)} ms`,
    `  PostgreSQL: ${docsPerSecond(postgres).toFixed(1)} docs/s, p50 ${percentile(postgres.latenciesMs, 50).toFixed(1)} ms`,
    `  throughput PostgreSQL/SQLite >= 0.90: ${rate.toFixed(2)} x  ${check(rate >= 0.9)}`,
    `  p50 PostgreSQL/SQLite <= 1.10:        ${p50.toFixed(2)} x  ${check(p50 <= 1.1)}`,
  ];
}
