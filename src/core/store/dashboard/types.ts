/**
 * What the dashboard (server/dashboard) keeps in the store, so any node behind the balancer
 * serves it: sign-in sessions, one-time login codes of `imprint login --web`, test keys,
 * when each key was last used, and wrong sign-in keys per address. Secrets (session tokens, poll tokens, keys) are kept as SHA-256
 * only, as API keys are.
 */
import type { SignInAttempts } from './sign-in-attempts.js';
import type { CreatedApiKey, Team } from '../account-types.js';

export interface DashboardSession {
  team: Team;
  /** The key the person signed in with: revoking it ends the session. */
  keyId: string;
  /**
   * Opened with a test key: everything done through the session stays in test mode (its
   * renders stamped and not counted, the keys and login codes it makes test keys, its job
   * views test jobs only; server/dashboard/session.ts).
   */
  test: boolean;
  /** Sent back with every state-changing request (double submit, checked against this). */
  csrf: string;
}

export interface DashboardKey {
  id: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** A test key: its documents carry a TEST stamp and are not counted. */
  test: boolean;
}

export interface LoginCodeInfo {
  code: string;
  /** What the CLI said it runs on (user@host), shown on the approval page. */
  machine: string;
  createdAt: string;
  expiresAt: string;
  state: 'pending' | 'approved' | 'claimed' | 'expired';
}

export type LoginClaim =
  | { state: 'pending' }
  | { state: 'expired' }
  | { state: 'approved'; team: string; key: CreatedApiKey; test: boolean };

export interface DashboardStore {
  createSession(teamId: number, keyId: string): Promise<{ token: string; csrf: string }>;
  /** The live session of a token, its idle clock restarted; undefined when unknown, idle past idleMs, ended or its key revoked. */
  getSession(token: string, idleMs: number): Promise<DashboardSession | undefined>;
  endSession(token: string): Promise<void>;

  listKeys(teamId: number): Promise<DashboardKey[]>;
  createKey(teamId: number, options?: { test?: boolean }): Promise<CreatedApiKey>;
  /** Revokes one of the team's keys; false when the team has no such key (another team's key is "no such key"). */
  revokeKey(teamId: number, keyId: string): Promise<boolean>;
  /** Records that a key was used (at most once a minute per key: a write per request would be waste). */
  touchKey(keyId: string): Promise<void>;
  isTestKey(keyId: string): Promise<boolean>;

  /** A new login code for `imprint login --web`: `code` goes in the URL the person opens, `pollToken` stays with the CLI. */
  createLoginCode(machine: string, ttlMs: number): Promise<{ code: string; pollToken: string; expiresAt: string }>;
  getLoginCode(code: string): Promise<LoginCodeInfo | undefined>;
  /** Approves a pending, unexpired code for a team; false otherwise. `test`: approved in a test key's session, so the key it gives is a test key. */
  approveLoginCode(code: string, teamId: number, options?: { test?: boolean }): Promise<boolean>;
  /** The CLI's poll: once approved, a new key of that team (a test key when a test session approved it), handed out once (the code is spent). */
  claimLoginCode(pollToken: string): Promise<LoginClaim | undefined>;

  /** Successful generations per UTC day (YYYY-MM-DD), counted from now on. */
  countDay(teamId: number, day: string, delta: number): Promise<void>;
  dailyUsage(teamId: number, fromDay: string): Promise<{ day: string; count: number }[]>;

  /** Wrong sign-in keys per client address, shared by every node (sign-in-attempts.ts). */
  readonly signIns: SignInAttempts;
}

export type { CreatedApiKey };
