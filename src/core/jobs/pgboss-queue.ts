/**
 * The queue on PostgreSQL: pg-boss 10 (its own schema in the same database). Each row of a
 * job is one pg-boss message, so every node's workers take rows (SKIP LOCKED), and a message
 * a dead node held comes back after `expireInSeconds` (pg-boss's maintenance marks it for
 * retry), to be taken by another node. The job store decides whether a delivered row still
 * needs work (a claim by attempt), so a message delivered twice renders and counts once.
 * Webhook attempts are messages too, sent with `startAfter` by the backoff schedule.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { JobStore } from './job-types.js';
import type { JobQueue, QueueHandlers } from './job-queue.js';

export const ROW_QUEUE = 'imprint-job-rows';
export const WEBHOOK_QUEUE = 'imprint-job-webhooks';
const PGBOSS_SCHEMA = 'imprint_queue';
/** Messages inserted per statement when a job is submitted. */
const INSERT_CHUNK = 1000;
/** Redeliveries of one row message (node deaths in a row); the job store fails a row long before for its own errors. */
const ROW_RETRY_LIMIT = 20;

export interface PgBossQueueOptions {
  url: string;
  jobs: JobStore;
  slots: number;
  /** How long a row message may stay active before another node gets it: must outlast a render. */
  leaseMs: number;
  onError: (error: unknown) => void;
}

/** Any fixed number, the same on every node: pg-boss's set-up is done by one node at a time. ("ipgb" in ASCII.) */
const START_LOCK = 0x69706762;

/**
 * Runs pg-boss's set-up (its schema on a new database, the queues) holding a session advisory
 * lock: nodes started together on a new database otherwise race to create the schema, and
 * the loser's start fails with an error pg-boss does not expect.
 */
async function oneNodeAtATime(url: string, work: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [START_LOCK]);
    try {
      await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [START_LOCK]);
    }
  } finally {
    // Ending the session gives the lock back even if the unlock above could not be sent.
    await client.end();
  }
}

/** A message id fixed by its content: sending the same attempt twice inserts it once. */
function messageId(...parts: (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface RowMessage {
  jobId: string;
  row: number;
}

interface WebhookMessage {
  jobId: string;
  attempt: number;
}

export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  // A little longer than the row's own lease, so a message comes back once the row may be claimed again.
  const expireInSeconds = Math.max(1, Math.ceil(options.leaseMs / 1000) + 2);
  const boss = new PgBoss({
    connectionString: options.url,
    schema: PGBOSS_SCHEMA,
    max: options.slots + 4,
    // Expired messages (a dead node's rows) are found by maintenance: run it often enough that
    // a row waits about one lease, not the default two minutes more.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.ceil(expireInSeconds / 2))),
  });
  boss.on('error', options.onError);
  try {
    await oneNodeAtATime(options.url, async () => {
      await boss.start();
      await boss.createQueue(ROW_QUEUE, { name: ROW_QUEUE, retryLimit: ROW_RETRY_LIMIT, retryDelay: 1, expireInSeconds });
      await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: 60 });
    });
  } catch (error) {
    // Its connections and timers would keep a failed service's process alive.
    await boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
    throw error;
  }
  const workers: string[] = [];

  return {
    async enqueueRows(jobId, rows) {
      const messages = Array.from({ length: rows }, (_, index) => ({ id: messageId('row', jobId, index + 1), name: ROW_QUEUE, data: { jobId, row: index + 1 } }));
      for (let start = 0; start < messages.length; start += INSERT_CHUNK) await boss.insert(messages.slice(start, start + INSERT_CHUNK));
    },

    async enqueueWebhook(jobId, attempt, delayMs) {
      await boss.send(WEBHOOK_QUEUE, { jobId, attempt }, { id: messageId('webhook', jobId, attempt), startAfter: Math.ceil(delayMs / 1000) });
    },

    async start(handlers: QueueHandlers) {
      // One worker per slot, each taking one row at a time; a worker that found a row looks
      // again at once instead of after the polling interval.
      for (let slot = 0; slot < options.slots; slot++) {
        let id = '';
        id = await boss.work<RowMessage>(ROW_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([message]) => {
          const claim = await options.jobs.claimRow(message.data.jobId, message.data.row, options.leaseMs);
          // Another node's claim still runs (this message came back a moment before its lease
          // ran out): fail the message, so pg-boss offers it again after its retry delay.
          if (claim === 'held') throw new Error(`Row ${message.data.row} of job ${message.data.jobId} is still claimed by another node.`);
          if (claim === 'finished') await handlers.rowSeenFinished(message.data.jobId);
          else await handlers.row(claim);
          boss.notifyWorker(id);
        });
        workers.push(id);
      }
      await boss.work<WebhookMessage>(WEBHOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([message]) => {
        await handlers.webhook(message.data.jobId, message.data.attempt);
      });
    },

    async stop() {
      // graceful: rows in progress finish and are completed; close: its connections go.
      await boss.stop({ graceful: true, close: true, wait: true, timeout: 60_000 });
    },
  };
}
