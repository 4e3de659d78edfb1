/**
 * The pool's admission: at most `concurrency` renders hold a page, at most `maxQueue` wait
 * for one, and the next is refused at once with BUSY, carrying an estimate of when to try
 * again (the server's Retry-After). p-limit does the queueing.
 */
import pLimit from 'p-limit';
import { ImprintError } from '../errors.js';

export interface Gate {
  run<T>(work: () => Promise<T>): Promise<T>;
  setConcurrency(concurrency: number): void;
  readonly concurrency: number;
  readonly active: number;
  readonly queued: number;
}

export interface GateOptions {
  concurrency: number;
  maxQueue: number;
  /** Typical time one render holds a page, for the Retry-After estimate. */
  typicalRenderMs: () => number;
}

/** Seconds until a place in the queue is likely free: the queue ahead drained by every page. */
export function retryAfterSeconds(queued: number, concurrency: number, typicalRenderMs: number): number {
  return Math.max(1, Math.ceil(((queued + 1) * typicalRenderMs) / concurrency / 1000));
}

export function createGate(options: GateOptions): Gate {
  const limit = pLimit(options.concurrency);
  return {
    run(work) {
      // p-limit counts a task as pending until a microtask starts it, so compare the total.
      if (limit.activeCount + limit.pendingCount >= limit.concurrency + options.maxQueue) {
        const seconds = retryAfterSeconds(limit.pendingCount, limit.concurrency, options.typicalRenderMs());
        return Promise.reject(
          new ImprintError('BUSY', `All ${limit.concurrency} render slots are busy and ${options.maxQueue} renders are already waiting. Try again in ${seconds} s.`, {
            retryAfterSeconds: seconds,
          }),
        );
      }
      return limit(work);
    },
    setConcurrency(concurrency) {
      limit.concurrency = concurrency;
    },
    get concurrency() {
      return limit.concurrency;
    },
    get active() {
      return limit.activeCount;
    },
    get queued() {
      return limit.pendingCount;
    },
  };
}
