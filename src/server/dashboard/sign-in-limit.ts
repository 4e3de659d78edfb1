/**
 * Wrong guesses per key (a client address, a session): a sign-in key is 256 random bits, so
 * guessing is hopeless, but an address that keeps trying is refused for a while rather than
 * answered at full speed; a login code (`imprint login --web`) is short enough to type, so its
 * guesses are limited the same way, per session and per address (RFC 8628 section 5.1).
 * Counted in the store (core/store/dashboard/sign-in-attempts.ts), so every node behind the
 * balancer refuses a key that used up its attempts through any of them.
 */
import { ImprintError } from '../../core/errors.js';
import type { SignInAttempts } from '../../core/store/dashboard/sign-in-attempts.js';

export interface AttemptLimit {
  /** Throws TOO_MANY_ATTEMPTS when `key` used up its attempts in its current window. */
  check(key: string): Promise<void>;
  /** A wrong guess: one attempt of `key` used. */
  failed(key: string): Promise<void>;
}

export const DEFAULT_SIGN_IN_ATTEMPTS = 10;
export const DEFAULT_SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Test only (test/multinode/dashboard-sessions.test.ts): IMPRINT_TEST_SIGN_IN_WINDOW_MS shortens
 * the window of a real `imprint serve`, so a test sees a refused address let in again.
 */
export function signInWindowForTests(): number | undefined {
  const text = process.env.IMPRINT_TEST_SIGN_IN_WINDOW_MS;
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

export interface AttemptLimitOptions {
  attempts: number;
  windowMs: number;
  now: () => Date;
}

/** `refusal`: the message once the attempts are used up, given the seconds until the window ends. */
export function createAttemptLimit(store: SignInAttempts, options: AttemptLimitOptions, refusal: (retryAfterSeconds: number) => string): AttemptLimit {
  return {
    async check(key) {
      const window = await store.current(key, options.windowMs);
      if (window && window.failures >= options.attempts) {
        const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - options.now().getTime()) / 1000));
        throw new ImprintError('TOO_MANY_ATTEMPTS', refusal(retryAfterSeconds), { retryAfterSeconds });
      }
    },
    failed: (key) => store.fail(key, options.windowMs),
  };
}

/** Wrong sign-in keys, per client address. */
export const createSignInLimit = (store: SignInAttempts, options: AttemptLimitOptions) =>
  createAttemptLimit(store, options, (seconds) => `Too many sign-in attempts from this address. Try again in ${seconds} s with a valid API key.`);

/** Login codes that do not exist, per session and per client address (their keys in the store start with "login-code:", apart from sign-ins' bare addresses). */
export const createLoginCodeLimit = (store: SignInAttempts, options: AttemptLimitOptions) =>
  createAttemptLimit(store, options, (seconds) => `Too many wrong login codes. Try again in ${seconds} s, with the code your terminal shows (\`imprint login --web\`).`);
