/**
 * Job metrics (docs/jobs.md): rows finished by outcome, and the rows waiting or in progress
 * over all jobs (read from the store at each scrape, so every node of a cluster reports the
 * cluster's queue).
 */
import { Counter } from 'prom-client';
import type { JobStore } from '../../core/jobs/job-types.js';
import type { Metrics } from './metrics.js';

export function jobMetrics(metrics: Metrics, jobs: JobStore) {
  const rows = new Counter({
    name: 'imprint_job_rows_total',
    help: 'Job rows this node finished, by result: done (a PDF delivered and counted) or failed (given back).',
    labelNames: ['result'],
    registers: [metrics.registry],
  });
  metrics.gauges({ depth: { name: 'imprint_job_rows_pending', help: 'Job rows queued or in progress, over all jobs and nodes.' } }, async () => ({ depth: await jobs.queueDepth() }));
  return (outcome: 'done' | 'failed') => rows.inc({ result: outcome });
}
