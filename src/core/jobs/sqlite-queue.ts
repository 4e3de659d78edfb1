/**
 * The queue on the SQLite store: rows are claimed from the job_rows table with a lease, at
 * most `slots` at once. A submit in this process wakes the loop; otherwise it looks again
 * every `pollMs` (rows another process submitted, leases that ran out, webhooks now due).
 * After a restart the same table is read again, so a job resumes where it stood; rows the
 * old process held come back once their lease has run out (a clean stop lets them finish).
 */
import type { JobStore } from './job-types.js';
import type { JobQueue, QueueHandlers } from './job-queue.js';

export interface SqliteQueueOptions {
  jobs: JobStore;
  slots: number;
  /** How long a claimed row is this process's: longer than any render (the render timeout) with room to spare. */
  leaseMs: number;
  pollMs?: number;
  onError: (error: unknown) => void;
}

const WEBHOOKS_AT_ONCE = 4;

export function createSqliteQueue(options: SqliteQueueOptions): JobQueue {
  const { jobs, slots, leaseMs, pollMs = 1000 } = options;
  let handlers: QueueHandlers | undefined;
  let stopped = false;
  let active = 0;
  let webhooksActive = 0;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;
  let again = false;

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  /** Fills the free slots; runs again whenever a row finishes or a submit arrives. */
  async function pump(): Promise<void> {
    if (!handlers || stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        const free = slots - active;
        if (free > 0) {
          for (const claim of await jobs.claimRows(free, leaseMs)) {
            active++;
            track(
              handlers
                .row(claim)
                .catch(options.onError)
                .finally(() => {
                  active--;
                  void pump();
                }),
            );
          }
        }
        if (webhooksActive < WEBHOOKS_AT_ONCE) {
          for (const due of await jobs.claimWebhooks(WEBHOOKS_AT_ONCE - webhooksActive, leaseMs)) {
            webhooksActive++;
            track(
              handlers
                .webhook(due.jobId, due.attempt)
                .catch(options.onError)
                .finally(() => webhooksActive--),
            );
          }
        }
      } while (again && !stopped);
    } catch (error) {
      options.onError(error);
    } finally {
      pumping = false;
    }
  }

  const tick = () => {
    if (stopped) return;
    void pump().finally(() => {
      if (!stopped) timer = setTimeout(tick, pollMs);
    });
  };

  return {
    async enqueueRows() {
      void pump();
    },
    async enqueueWebhook() {
      void pump();
    },
    async start(given) {
      handlers = given;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
