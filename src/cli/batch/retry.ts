/**
 * When a batch row's render is worth trying again, and after how long. Pure: the runner
 * supplies the clock and the dice.
 *
 * Retried: an HTTP answer of 429 or 5xx from the service (the remote client's errors carry
 * `status`, and `retryAfterSeconds` from a Retry-After header), a service that could not be
 * reached, and in embedded mode a full queue or a browser that crashed mid-render (the pool
 * relaunches it). Not retried: anything about the row itself (bad props, a template that
 * throws, 4xx), which would fail again the same way.
 */
import { isImprintError } from '../../core/errors.js';

/** The shape the remote client's errors take, as far as retrying is concerned. */
export interface HttpStatusError {
  /** The HTTP status the service answered. */
  status: number;
  /** The Retry-After header in seconds, when the service sent one. */
  retryAfterSeconds?: number;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** The first backoff; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the row fails instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

const RETRIED_CODES = new Set(['BUSY', 'BROWSER_FAILED', 'REMOTE_UNREACHABLE']);

/** The HTTP answer behind an error: on it, or on a cause (the remote backend wraps the client's errors). */
function statusOf(error: unknown): HttpStatusError | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { status, retryAfterSeconds } = current as Partial<HttpStatusError>;
    if (typeof status === 'number') {
      return { status, retryAfterSeconds: typeof retryAfterSeconds === 'number' && retryAfterSeconds >= 0 ? retryAfterSeconds : undefined };
    }
  }
  return undefined;
}

/**
 * Failures that are not about one row: every other row would fail the same way (no such
 * template, a bad API key, the team's limit reached, no browser), so the batch stops.
 */
const FATAL_CODES = new Set(['NOT_FOUND', 'UNAUTHORIZED', 'LIMIT_EXCEEDED', 'BROWSER_NOT_FOUND']);
const FATAL_STATUSES = new Set([401, 403, 404, 422]);

export function isFatal(error: unknown): boolean {
  const http = statusOf(error);
  if (http) return FATAL_STATUSES.has(http.status);
  return isImprintError(error) && FATAL_CODES.has(error.code);
}

export function isRetryable(error: unknown): boolean {
  const http = statusOf(error);
  if (http) return http.status === 429 || (http.status >= 500 && http.status <= 599);
  return isImprintError(error) && RETRIED_CODES.has(error.code);
}

function retryAfterMs(error: unknown): number | undefined {
  const seconds = statusOf(error)?.retryAfterSeconds ?? (isImprintError(error) ? error.retryAfterSeconds : undefined);
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * After failed attempt number `attempt` (1-based): retry, and when. The backoff is
 * exponential with full jitter (`random` in [0, 1)), so parallel rows refused together do not
 * come back together; a Retry-After is a floor under it.
 */
export function decideRetry(error: unknown, attempt: number, policy: RetryPolicy, random: number): RetryDecision {
  if (attempt >= policy.maxAttempts || !isRetryable(error)) return { retry: false };
  const asked = retryAfterMs(error);
  if (asked !== undefined && asked > policy.maxRetryAfterMs) return { retry: false };
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling * random);
  return { retry: true, delayMs: Math.max(asked ?? 0, backoff) };
}
