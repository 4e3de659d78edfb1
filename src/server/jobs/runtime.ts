/**
 * Jobs on this node: the queue (the job tables, on SQLite or PostgreSQL), the workers that
 * render rows through the service's own browser pool, and what the routes need.
 *
 * Fairness: a job's rows take at most `slots` of the pool's render slots at once: all of them,
 * so a node given to a job renders as fast as an embedded batch. A worker asks the pool for its
 * next row's slot only after its last row's render is done and the next row is claimed, and the pool
 * admits in arrival order, so a synchronous A1/A2 request that arrives while every slot
 * renders a row takes the first slot that frees: it waits for renders already under way (about
 * one row's time), never behind a job's thousands of rows. Keeping a slot idle for requests
 * instead measured 0.54-0.71x the embedded batch's rate on 2 cores; all slots, 0.92-0.98x.
 */
import type { Engine } from '../../core/engine.js';
import type { JobQueue } from '../../core/jobs/job-queue.js';
import { createJobs, type Jobs, type WebhookSender } from '../../core/jobs/jobs.js';
import type { RowLimits } from '../../core/jobs/parse-job.js';
import { createTableQueue } from '../../core/jobs/table-queue.js';
import type { NetPolicy } from '../../core/net/address-policy.js';
import type { Resolver } from '../../core/net/resolver.js';
import type { BrowserPool } from '../../core/render/pool.js';
import type { Store } from '../../core/store/index.js';
import { checkRenderUrl, serviceUrlAccess } from '../../core/url-access.js';
import type { ServiceUrls } from '../urls.js';

export interface JobsRuntimeOptions {
  store: Store;
  /** The service's engine: rows render through its pinned, uncounted renders (renderPinned, generatePdf). */
  engine: Engine;
  browsers: BrowserPool;
  urlTtlMs: number;
  /** Where a job's URLs point (its webhook event). */
  urls: ServiceUrls;
  netPolicy: NetPolicy;
  resolve?: Resolver;
  /** How often the queue looks for work it was not woken for (other nodes' submits, leases run out, webhooks due). */
  pollMs?: number;
  /** How long a row may stay claimed by a node before another takes it (must outlast a render). */
  leaseMs: number;
  webhooks?: WebhookSender;
  /** How deep and large one row may be: the service's render limits (parse-job.ts). */
  rowLimits?: RowLimits;
  onError: (error: unknown) => void;
  /** Rows counted by outcome (when metrics are on). */
  metrics?: { onRow: (outcome: 'done' | 'failed') => void };
}

export interface JobsRuntime {
  jobs: Jobs;
  slots: number;
  queue: JobQueue;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Rows' share of the pool: every slot (see Fairness above for why requests still go first). */
export const jobSlots = (concurrency: number) => Math.max(1, concurrency);

/**
 * Test only (test/contract/jobs-crash-point.test.ts): with IMPRINT_TEST_EXIT_AFTER_JOB_COMMIT=1
 * the process dies (SIGKILL, no clean-up of any kind) right after a job's transaction commits,
 * as a node lost at the worst moment would, before the caller is answered.
 */
function crashAfterJobCommit(): (() => void) | undefined {
  if (process.env.IMPRINT_TEST_EXIT_AFTER_JOB_COMMIT !== '1') return undefined;
  return () => process.kill(process.pid, 'SIGKILL');
}

export async function createJobsRuntime(options: JobsRuntimeOptions): Promise<JobsRuntime> {
  const { store } = options;
  const slots = jobSlots(options.browsers.stats().concurrency);
  const { leaseMs } = options;
  const queue: JobQueue = createTableQueue({ jobs: store.jobs, slots, leaseMs, pollMs: options.pollMs, onError: options.onError });
  const access = serviceUrlAccess(options.netPolicy, options.resolve);
  const jobs = createJobs({
    store,
    jobs: store.jobs,
    queue,
    // The service's own engine (its pool, rules, artifact cache and, when on, metrics): rows
    // render the pinned version to PDF bytes, uncounted (the job took every row's unit at submit).
    renderer: options.engine,
    checkRenderUrl: (url) => checkRenderUrl(url, access),
    urlTtlMs: options.urlTtlMs,
    urls: options.urls,
    rowLimits: options.rowLimits,
    webhooks: options.webhooks,
    onRow: options.metrics?.onRow,
    onError: options.onError,
    afterCommit: crashAfterJobCommit(),
  });
  return {
    jobs,
    slots,
    queue,
    start: () =>
      queue.start({
        row: (claim, rendered) => jobs.runRow(claim, rendered),
        webhook: (due) => jobs.deliverWebhook(due),
      }),
    stop: () => queue.stop(),
  };
}
