/**
 * Wrong sign-in keys per client address, kept in the store so every node behind the balancer
 * counts the same ones (server/dashboard/sign-in-limit.ts decides from them). An address has at
 * most one window: its first failure opens it, and a failure after it ended opens a new one.
 * One statement per failure (an upsert that either adds to the running window or starts a new
 * one), so two nodes counting at once never lose a failure; the SQL is the common part of
 * SQLite's and PostgreSQL's, run through the dashboard's SqlPort (sql-port.ts).
 */
import { toIso, type Clock } from '../time.js';
import type { SqlPort } from './sql-port.js';

export interface SignInWindow {
  /** Wrong keys sent in the window so far. */
  failures: number;
  /** When the window ends (ms since the epoch): its failures count until then. */
  endsAt: number;
}

export interface SignInAttempts {
  /** The address's running window; undefined when none runs (no failure, or the last window ended). */
  current(address: string, windowMs: number): Promise<SignInWindow | undefined>;
  /** A wrong key from the address: one more failure in its running window, or the first of a new one. */
  fail(address: string, windowMs: number): Promise<void>;
}

/** One step appended to both SQLite's and PostgreSQL's migration lists. */
export const SIGN_IN_ATTEMPTS_MIGRATION = {
  description: "the dashboard's wrong sign-in keys per client address, shared by every node",
  sql: `
    CREATE TABLE sign_in_attempts (
      address TEXT PRIMARY KEY,
      window_start TEXT NOT NULL,
      failures INTEGER NOT NULL
    );
    CREATE INDEX sign_in_attempts_window ON sign_in_attempts(window_start);
  `,
};

/** Addresses are what the proxy said they are; bounded, so a forged header cannot store a novel. */
const MAX_ADDRESS = 100;

export function createSignInAttempts(sql: SqlPort, now: Clock): SignInAttempts {
  const cutoff = (windowMs: number) => toIso(new Date(now().getTime() - windowMs));
  const key = (address: string) => address.replace(/\0/g, '').slice(0, MAX_ADDRESS);

  return {
    async current(address, windowMs) {
      const [row] = await sql.all<{ window_start: string; failures: number }>(
        'SELECT window_start, failures FROM sign_in_attempts WHERE address = ? AND window_start > ?',
        [key(address), cutoff(windowMs)],
      );
      return row ? { failures: Number(row.failures), endsAt: Date.parse(row.window_start) + windowMs } : undefined;
    },

    async fail(address, windowMs) {
      const at = toIso(now());
      const ended = cutoff(windowMs);
      // Every SET expression reads the row as it was, on both databases.
      await sql.run(
        `INSERT INTO sign_in_attempts (address, window_start, failures) VALUES (?, ?, 1)
           ON CONFLICT (address) DO UPDATE SET
             failures = CASE WHEN sign_in_attempts.window_start <= ? THEN 1 ELSE sign_in_attempts.failures + 1 END,
             window_start = CASE WHEN sign_in_attempts.window_start <= ? THEN excluded.window_start ELSE sign_in_attempts.window_start END`,
        [key(address), at, ended, ended],
      );
      // Ended windows are forgotten, so a flood of addresses leaves no more rows than one window's.
      await sql.run('DELETE FROM sign_in_attempts WHERE window_start <= ?', [ended]);
    },
  };
}
