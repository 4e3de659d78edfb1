/**
 * The queue port: which row (or webhook delivery) a node works on next. Two adapters: the
 * SQLite store's own leases (sqlite-queue.ts, one node, durable across restarts) and pg-boss
 * on PostgreSQL (pgboss-queue.ts, every node takes rows, a row outlives the node that took
 * it). Either way the job store holds the truth (a row's state and outcome); the queue only
 * delivers work, so a row delivered twice is claimed once (job-types.ts).
 */
import type { ClaimedRow } from './job-types.js';

export interface QueueHandlers {
  /** Renders one claimed row and records its outcome; throws only when the row should be tried again later. */
  row(claim: ClaimedRow): Promise<void>;
  /** Makes one delivery attempt of a job's webhook and records it (scheduling the next one if it failed). */
  webhook(jobId: string, attempt: number): Promise<void>;
  /** A row delivered again was finished already (pg-boss: its node stopped before acknowledging it). */
  rowSeenFinished(jobId: string): Promise<void>;
}

export interface JobQueue {
  /** A new job's rows are waiting (pg-boss: one message per row; SQLite: a wake-up). */
  enqueueRows(jobId: string, rows: number): Promise<void>;
  /** A webhook delivery attempt is due after `delayMs` (SQLite: the store already holds the schedule). */
  enqueueWebhook(jobId: string, attempt: number, delayMs: number): Promise<void>;
  /** Starts taking work: at most `slots` rows at once on this node. */
  start(handlers: QueueHandlers): Promise<void>;
  /** Stops taking work and waits for the rows in progress. */
  stop(): Promise<void>;
}
