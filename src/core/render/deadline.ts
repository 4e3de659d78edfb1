/** Runs work against a deadline; on expiry `onExpire` runs (closing the page stops the work). */
import { ImprintError } from '../errors.js';

/** 30 s, 1.5 s: whole seconds unless the deadline is shorter or not whole. */
export const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1))} s`;

/** A render's deadline unless configured: 30 s, time waiting in the pool's queue included. */
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

/** `statedMs`: the deadline the message names, when time already spent (queueing) shortened it. */
export async function withDeadline<T>(timeoutMs: number, what: string, work: Promise<T>, onExpire?: () => void, statedMs = timeoutMs): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpire?.();
      reject(new ImprintError('RENDER_TIMEOUT', `${what} did not finish within ${formatSeconds(statedMs)}. Check for a template that never finishes rendering or a resource that never loads.`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
