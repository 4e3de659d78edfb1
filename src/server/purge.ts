/** Expired download files are removed at start and then periodically, in the background. */
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../core/store/index.js';

export const DEFAULT_PURGE_INTERVAL_MS = 10 * 60 * 1000;

export function purgeOnce(store: Store, log: FastifyBaseLogger): number {
  const removed = store.purgeExpiredFiles();
  if (removed > 0) log.info({ removed }, 'purged expired download files');
  return removed;
}

export function startPurging(store: Store, log: FastifyBaseLogger, intervalMs: number): () => void {
  purgeOnce(store, log);
  const timer = setInterval(() => {
    try {
      purgeOnce(store, log);
    } catch (error) {
      // A failed pass (database busy) is retried at the next tick; the service keeps serving.
      log.error({ err: error }, 'purging expired download files failed');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
