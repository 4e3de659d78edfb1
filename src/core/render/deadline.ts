/** Runs work against a deadline; on expiry `onExpire` runs (closing the page stops the work). */
import { ImprintError } from '../errors.js';

/** A render's deadline unless configured: 30 s, time waiting in the pool's queue included. */
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

export async function withDeadline<T>(timeoutMs: number, what: string, work: Promise<T>, onExpire?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpire?.();
      reject(new ImprintError('RENDER_TIMEOUT', `${what} did not finish within ${Math.round(timeoutMs / 1000)} s. Check for a template that never finishes rendering or a resource that never loads.`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
