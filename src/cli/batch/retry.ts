/**
 * When a batch row's render is worth trying again, and after how long. Pure: the runner
 * supplies the clock and the dice.
 *
 * Retried: an HTTP answer of 429 or 5xx from the service (the remote client's errors carry
 * `status`, and `retryAfterSeconds` from a Retry-After header: src/client/client.ts), a
 * service that could not be reached, and in embedded mode a full queue or a browser that
 * crashed mid-render (the pool relaunches it). Not retried: anything about the row itself (bad
 * props, a template that throws, 4xx), which would fail again the same way.
 *
 * "Busy" (429, or BUSY in embedded mode) is not a failure of the row: the service has no room
 * right now and says when to come back. A batch larger than the service's queue meets it as a
 * matter of course, so busy answers have a budget of their own (maxBusyAttempts), larger than
 * that of real failures (maxAttempts), and each wait is at least the Retry-After asked for.
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
  /** Tries ending in a failure worth retrying (5xx, unreachable, a crashed browser), the first included. */
  maxAttempts: number;
  /** Tries answered busy (429, BUSY), counted apart: a full queue is expected when a batch outruns the service. */
  maxBusyAttempts: number;
  /** The first backoff; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the row fails instead. */
  maxRetryAfterMs: number;
}

/**
 * Up to 4 tries for failures and 12 for busy answers; each wait is the longer of the
 * Retry-After (one over 60 s fails the row instead) and a jittered backoff doubling from
 * 250 ms up to 8 s. A row the service keeps refusing with Retry-After: 1 gives up after
 * about a minute.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, maxBusyAttempts: 12, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

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
 * template, an API URL without the endpoint, a bad API key, the team's generation limit
 * reached, no browser), so the batch stops. Not among them: a document past the page or
 * PDF-size limit (DOCUMENT_TOO_LARGE, a 422 too, but about that row's document only).
 */
const FATAL_CODES = new Set(['NOT_FOUND', 'ROUTE_NOT_FOUND', 'UNAUTHORIZED', 'LIMIT_EXCEEDED', 'BROWSER_NOT_FOUND']);
/** For an HTTP error nobody classified: api.md's 422 is the generation limit, which is the team's. */
const FATAL_STATUSES = new Set([401, 403, 404, 422]);

/**
 * An ImprintError's code decides: the remote backend has read the answer (remote-errors.ts)
 * and knows a document-too-large 422 from the generation limit, which the status alone does not.
 */
export function isFatal(error: unknown): boolean {
  if (isImprintError(error)) return FATAL_CODES.has(error.code);
  const http = statusOf(error);
  return http !== undefined && FATAL_STATUSES.has(http.status);
}

export function isRetryable(error: unknown): boolean {
  const http = statusOf(error);
  if (http) return http.status === 429 || (http.status >= 500 && http.status <= 599);
  return isImprintError(error) && RETRIED_CODES.has(error.code);
}

/** The service had no room for the render (429, or a full pool queue in embedded mode): try again later. */
export function isBusy(error: unknown): boolean {
  const http = statusOf(error);
  if (http) return http.status === 429;
  return isImprintError(error) && error.code === 'BUSY';
}

function retryAfterMs(error: unknown): number | undefined {
  const seconds = statusOf(error)?.retryAfterSeconds ?? (isImprintError(error) ? error.retryAfterSeconds : undefined);
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * After a failed try: retry, and when. `attempt` counts the row's tries that ended like this
 * one (1-based): busy answers (isBusy) and other failures each have their own count and bound.
 * The backoff is exponential with full jitter (`random` in [0, 1)), so parallel rows refused
 * together do not come back together; a Retry-After is a floor under it.
 */
export function decideRetry(error: unknown, attempt: number, policy: RetryPolicy, random: number): RetryDecision {
  if (!isRetryable(error) || attempt >= (isBusy(error) ? policy.maxBusyAttempts : policy.maxAttempts)) return { retry: false };
  const asked = retryAfterMs(error);
  if (asked !== undefined && asked > policy.maxRetryAfterMs) return { retry: false };
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling * random);
  return { retry: true, delayMs: Math.max(asked ?? 0, backoff) };
}
