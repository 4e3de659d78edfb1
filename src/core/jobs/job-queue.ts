/**
 * The queue port: which row (or webhook delivery) a node works on next. One adapter on both
 * databases, the job tables themselves (table-queue.ts): a row is claimed with a lease in the
 * store that holds its state and outcome, so a submit is one transaction, a row delivered
 * twice is claimed once (job-types.ts), and there is no second queue to keep in step.
 */
import type { ClaimedRow, DueWebhook } from './job-types.js';

export interface QueueHandlers {
  /**
   * Renders one claimed row and records its outcome. `rendered`: called once the render is over
   * (its browser slot free), before the PDF is kept and the outcome recorded, so the queue can
   * start the next row's render meanwhile.
   */
  row(claim: ClaimedRow, rendered: () => void): Promise<void>;
  /** Makes one delivery attempt of a job's webhook and records it (the store schedules the next one if it failed). */
  webhook(due: DueWebhook): Promise<void>;
}

export interface JobQueue {
  /** Work may be waiting (a submit, a job that just finished): look now rather than at the next poll. */
  wake(): void;
  /** Starts taking work: at most `slots` rows at once on this node. */
  start(handlers: QueueHandlers): Promise<void>;
  /** Stops taking work and waits for the rows in progress. */
  stop(): Promise<void>;
}
