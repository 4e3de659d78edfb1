/**
 * Sign-in attempts per client address: a key is 256 random bits, so guessing is hopeless,
 * but an address that keeps trying is refused for a while rather than answered at full speed.
 * Counted in this node's memory: behind a balancer each node counts what reaches it, which
 * bounds a guesser by the number of nodes, enough for this purpose.
 */
import { ImprintError } from '../../core/errors.js';

export interface SignInLimit {
  /** Throws TOO_MANY_ATTEMPTS when the address used up its attempts in the current window. */
  check(address: string): void;
  /** A wrong key: one attempt used. */
  failed(address: string): void;
}

export function createSignInLimit(options: { attempts: number; windowMs: number; now?: () => number }): SignInLimit {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; failures: number }>();
  const current = (address: string) => {
    const entry = windows.get(address);
    if (entry && now() - entry.start < options.windowMs) return entry;
    if (windows.size > 10_000) windows.clear(); // bounded memory under a flood of addresses
    const fresh = { start: now(), failures: 0 };
    windows.set(address, fresh);
    return fresh;
  };
  return {
    check(address) {
      const entry = current(address);
      if (entry.failures >= options.attempts) {
        const retryAfterSeconds = Math.max(1, Math.ceil((entry.start + options.windowMs - now()) / 1000));
        throw new ImprintError('TOO_MANY_ATTEMPTS', `Too many sign-in attempts from this address. Try again in ${retryAfterSeconds} s with a valid API key.`, { retryAfterSeconds });
      }
    },
    failed(address) {
      current(address).failures++;
    },
  };
}
