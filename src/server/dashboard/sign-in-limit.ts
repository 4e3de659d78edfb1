/**
 * Sign-in attempts per client address: a key is 256 random bits, so guessing is hopeless,
 * but an address that keeps trying is refused for a while rather than answered at full speed.
 * Counted in the store (core/store/dashboard/sign-in-attempts.ts), so every node behind the balancer
 * refuses an address that used up its attempts through any of them.
 */
import { ImprintError } from '../../core/errors.js';
import type { SignInAttempts } from '../../core/store/dashboard/sign-in-attempts.js';

export interface SignInLimit {
  /** Throws TOO_MANY_ATTEMPTS when the address used up its attempts in its current window. */
  check(address: string): Promise<void>;
  /** A wrong key: one attempt used. */
  failed(address: string): Promise<void>;
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

export function createSignInLimit(store: SignInAttempts, options: { attempts: number; windowMs: number; now: () => Date }): SignInLimit {
  return {
    async check(address) {
      const window = await store.current(address, options.windowMs);
      if (window && window.failures >= options.attempts) {
        const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - options.now().getTime()) / 1000));
        throw new ImprintError('TOO_MANY_ATTEMPTS', `Too many sign-in attempts from this address. Try again in ${retryAfterSeconds} s with a valid API key.`, { retryAfterSeconds });
      }
    },
    failed: (address) => store.fail(address, options.windowMs),
  };
}
