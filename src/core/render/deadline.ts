/** Runs work against a deadline; on expiry `onExpire` runs (closing the page stops the work). */
import { ImprintError } from '../errors.js';

/** 30 s, 1.5 s: whole seconds unless the deadline is shorter or not whole. */
export const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1))} s`;

/** A render's deadline unless configured: 30 s, time waiting in the pool's queue included. */
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

/** The answer to a render that ran past its deadline. */
export const renderTimeout = (what: string, timeoutMs: number) =>
  new ImprintError('RENDER_TIMEOUT', `${what} did not finish within ${formatSeconds(timeoutMs)}. Check for a template that never finishes rendering or a resource that never loads.`);

export async function withDeadline<T>(timeoutMs: number, what: string, work: Promise<T>, onExpire?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpire?.();
      reject(renderTimeout(what, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
