/**
 * 4b. The service on PostgreSQL + S3 against the default (SQLite and files in the data
 * folder), in the same run on the same machine: scenario 4 (two clients, POST
 * /api/documents/invoice) against a node started with `--database` on a throwaway PostgreSQL
 * cluster (test/helpers/postgres.ts) and `--storage` on s3rver (test/helpers/s3.ts), and
 * against a node on the default. Per request each store looks up the API key and the template,
 * reserves and settles one unit; the artifact is read from the bucket once, then held in
 * memory; the rest is the same. The two alternate (SQLite,
 * PostgreSQL, PostgreSQL, SQLite) so a change in the machine's load meets both, and each is
 * judged by its better run.
 */
import path from 'node:path';
import type { Artifact } from '../../src/core/artifact.js';
import { startPostgres } from '../../test/helpers/postgres.js';
import { startS3 } from '../../test/helpers/s3.js';
import { docsPerSecond, percentile, type Measured } from '../lib/stats.js';
import { service } from './service.js';

export interface StoreComparison {
  sqlite: Measured[];
  postgres: Measured[];
}

export async function servicePostgres(work: string, artifact: Artifact, docs: number, onRow: (row: Measured) => void): Promise<StoreComparison> {
  const [cluster, s3] = await Promise.all([startPostgres(), startS3('imprint-bench')]);
  const runs: StoreComparison = { sqlite: [], postgres: [] };
  try {
    const order = ['sqlite', 'postgres', 'postgres', 'sqlite'] as const;
    for (const [i, store] of order.entries()) {
      const dataDir = path.join(work, `service-${store}-${i}`);
      const measured =
        store === 'sqlite'
          ? await service(dataDir, artifact, docs, { name: '4b service on SQLite (default)' })
          : await service(dataDir, artifact, docs, {
              databaseUrl: await cluster.createDatabase(),
              storage: { url: `s3://${s3.bucket}/run-${i}`, env: s3.env, options: s3.options(`run-${i}`) },
              name: '4b service on PostgreSQL + S3',
            });
      runs[store].push(measured);
      onRow(measured);
    }
  } finally {
    await Promise.all([cluster.stop(), s3.remove()]);
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
    `service on PostgreSQL + S3 vs the default, SQLite (better of ${runs.sqlite.length} runs each, same run, same machine):`,
    `  SQLite:          ${docsPerSecond(sqlite).toFixed(1)} docs/s, p50 ${percentile(sqlite.latenciesMs, 50).toFixed(1)} ms`,
    `  PostgreSQL + S3: ${docsPerSecond(postgres).toFixed(1)} docs/s, p50 ${percentile(postgres.latenciesMs, 50).toFixed(1)} ms`,
    `  throughput PostgreSQL+S3 / SQLite >= 0.90: ${rate.toFixed(2)} x  ${check(rate >= 0.9)}`,
    `  p50 PostgreSQL+S3 / SQLite <= 1.10:        ${p50.toFixed(2)} x  ${check(p50 <= 1.1)}`,
  ];
}
