/**
 * When a failed webhook attempt is tried again (api.md Part D: exponential backoff on a
 * non-2xx answer, a timeout or a network error, for at least an hour).
 *
 * The delay before attempt n+1 is base x 2^(n-1), capped at base x 360, times a random factor
 * from 0.75 to 1.25: the jitter keeps the retries of many jobs that failed together (a
 * receiver that was down) from arriving together again. With the default base of 10 s the
 * nominal schedule after the first attempt is 10 s, 20 s, 40 s, 80 s, 160 s, 320 s, 640 s,
 * 1280 s, 2560 s, 3600 s: 11 attempts over about 2 h 25 min, and never under 1 h 48 min even
 * when every jitter draw is the lowest. A test shortens the whole schedule by setting a small
 * base (`imprint serve --webhook-retry-base 50ms`); the shape stays the same.
 */

export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 10_000;

/** The first attempt and ten retries. */
export const WEBHOOK_MAX_ATTEMPTS = 11;

/** The longest wait between two attempts, in bases: an hour at the default base. */
const CAP_IN_BASES = 360;
const JITTER_LOW = 0.75;
const JITTER_SPAN = 0.5;

export interface WebhookBackoffOptions {
  /** The first retry's nominal delay (--webhook-retry-base); DEFAULT_WEBHOOK_RETRY_BASE_MS when absent. */
  baseMs?: number;
  /** A number in [0, 1); Math.random when absent (a test hands in a fixed one). */
  random?: () => number;
}

/**
 * How long to wait after failed attempt `attempt` (1 for the first) before the next one.
 * Call it only while hasWebhookRetryLeft(attempt).
 */
export function webhookRetryDelayMs(attempt: number, options: WebhookBackoffOptions = {}): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt is counted from 1 (got ${attempt})`);
  const base = options.baseMs ?? DEFAULT_WEBHOOK_RETRY_BASE_MS;
  const random = options.random ?? Math.random;
  // 2^(attempt-1) stops growing at the cap; Math.min first keeps the power from overflowing.
  const nominal = base * Math.min(2 ** Math.min(attempt - 1, 30), CAP_IN_BASES);
  return Math.round(nominal * (JITTER_LOW + JITTER_SPAN * random()));
}

/** Whether failed attempt `attempt` (1 for the first) is followed by another. */
export function hasWebhookRetryLeft(attempt: number): boolean {
  return attempt < WEBHOOK_MAX_ATTEMPTS;
}
