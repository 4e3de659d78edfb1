/** Expired download files are removed at start and then periodically, in the background. */
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../core/store/index.js';

export const DEFAULT_PURGE_INTERVAL_MS = 10 * 60 * 1000;

export async function purgeOnce(store: Store, log: FastifyBaseLogger): Promise<number> {
  const removed = await store.purgeExpiredFiles();
  if (removed > 0) log.info({ removed }, 'purged expired download files');
  return removed;
}

export async function startPurging(store: Store, log: FastifyBaseLogger, intervalMs: number): Promise<() => void> {
  await purgeOnce(store, log);
  const timer = setInterval(() => {
    purgeOnce(store, log).catch((error: unknown) => {
      // A failed pass (database busy) is retried at the next tick; the service keeps serving.
      log.error({ err: error }, 'purging expired download files failed');
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
