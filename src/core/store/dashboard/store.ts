/**
 * The dashboard's records (types.ts), written once for both databases: the SQL here is the
 * common part of SQLite's and PostgreSQL's, run through a two-call port (sql-port.ts). Each
 * change is one statement, so a login code is spent, or a session ended, atomically on either
 * database without a transaction spanning awaits.
 */
import { randomBytes } from 'node:crypto';
import { KEY_PREFIX } from '../api-key-format.js';
import { randomSecret, sha256Hex } from '../crypto.js';
import { couldBeStoredId, storableText } from '../stored-text.js';
import { teamFromRow, type TeamRow } from '../team-rules.js';
import { toIso, type Clock } from '../time.js';
import { loginCode } from './login-code.js';
import { createSignInAttempts } from './sign-in-attempts.js';
import type { SqlPort } from './sql-port.js';
import type { DashboardKey, DashboardStore, LoginClaim, LoginCodeInfo } from './types.js';
import { countDaySql } from './usage-daily.js';

/** How often a key's "last used" is written at most: a write per request would be waste. */
const TOUCH_EVERY_MS = 60_000;

export function createDashboardStore(sql: SqlPort, now: Clock): DashboardStore {
  const iso = (offsetMs = 0) => toIso(new Date(now().getTime() + offsetMs));

  async function insertKey(teamId: number, test: boolean) {
    const keyId = `key_${randomBytes(6).toString('hex')}`;
    const key = KEY_PREFIX + randomSecret();
    await sql.run('INSERT INTO api_keys (id, team_id, key_hash, created_at, test) VALUES (?, ?, ?, ?, ?)', [keyId, teamId, sha256Hex(key), iso(), test ? 1 : 0]);
    return { keyId, key };
  }

  return {
    signIns: createSignInAttempts(sql, now),

    async createSession(teamId, keyId) {
      const token = randomSecret();
      const csrf = randomSecret();
      const at = iso();
      await sql.run('INSERT INTO dashboard_sessions (token_hash, team_id, key_id, csrf, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)', [sha256Hex(token), teamId, keyId, csrf, at, at]);
      return { token, csrf };
    },

    async getSession(token, idleMs) {
      const hash = sha256Hex(token);
      // The session's mode is its key's, read with it: a key's kind never changes after it is made.
      const [row] = await sql.all<TeamRow & { key_id: string; key_test: number; csrf: string; last_seen_at: string }>(
        `SELECT t.id, t.name, t.generation_limit, t.created_at, s.key_id, k.test AS key_test, s.csrf, s.last_seen_at
           FROM dashboard_sessions s
           JOIN teams t ON t.id = s.team_id
           JOIN api_keys k ON k.id = s.key_id AND k.revoked_at IS NULL
          WHERE s.token_hash = ?`,
        [hash],
      );
      if (!row) return undefined;
      if (row.last_seen_at < iso(-idleMs)) {
        await sql.run('DELETE FROM dashboard_sessions WHERE token_hash = ?', [hash]);
        return undefined;
      }
      // The idle clock restarts, written at most once a minute.
      if (row.last_seen_at < iso(-TOUCH_EVERY_MS)) await sql.run('UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ?', [iso(), hash]);
      return { team: teamFromRow(row), keyId: row.key_id, test: Number(row.key_test) === 1, csrf: row.csrf };
    },

    async endSession(token) {
      await sql.run('DELETE FROM dashboard_sessions WHERE token_hash = ?', [sha256Hex(token)]);
    },

    async listKeys(teamId) {
      const rows = await sql.all<{ id: string; created_at: string; revoked_at: string | null; last_used_at: string | null; test: number }>(
        'SELECT id, created_at, revoked_at, last_used_at, test FROM api_keys WHERE team_id = ? ORDER BY created_at, id',
        [teamId],
      );
      return rows.map((row): DashboardKey => ({ id: row.id, createdAt: row.created_at, revokedAt: row.revoked_at, lastUsedAt: row.last_used_at, test: Number(row.test) === 1 }));
    },

    createKey: (teamId, options = {}) => insertKey(teamId, options.test === true),

    async revokeKey(teamId, keyId) {
      if (!couldBeStoredId(keyId)) return false;
      return (await sql.run('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND team_id = ?', [iso(), keyId, teamId])) > 0;
    },

    async touchKey(keyId) {
      await sql.run('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [iso(), keyId, iso(-TOUCH_EVERY_MS)]);
    },

    async isTestKey(keyId) {
      const [row] = await sql.all<{ test: number }>('SELECT test FROM api_keys WHERE id = ?', [keyId]);
      return Number(row?.test) === 1;
    },

    async createLoginCode(machine, ttlMs) {
      const code = loginCode();
      const pollToken = randomSecret();
      const expiresAt = iso(ttlMs);
      await sql.run('INSERT INTO login_codes (code, poll_hash, machine, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [code, sha256Hex(pollToken), storableText(machine.slice(0, 200)), iso(), expiresAt]);
      return { code, pollToken, expiresAt };
    },

    async getLoginCode(code) {
      if (!couldBeStoredId(code)) return undefined;
      const [row] = await sql.all<{ code: string; machine: string; created_at: string; expires_at: string; approved_team_id: number | null; claimed_at: string | null }>(
        'SELECT code, machine, created_at, expires_at, approved_team_id, claimed_at FROM login_codes WHERE code = ?',
        [code],
      );
      if (!row) return undefined;
      const state: LoginCodeInfo['state'] = row.claimed_at ? 'claimed' : row.expires_at <= iso() ? 'expired' : row.approved_team_id !== null ? 'approved' : 'pending';
      return { code: row.code, machine: row.machine, createdAt: row.created_at, expiresAt: row.expires_at, state };
    },

    async approveLoginCode(code, teamId, options = {}) {
      if (!couldBeStoredId(code)) return false;
      return (
        (await sql.run('UPDATE login_codes SET approved_team_id = ?, approved_test = ?, approved_at = ? WHERE code = ? AND approved_team_id IS NULL AND claimed_at IS NULL AND expires_at > ?', [
          teamId,
          options.test === true ? 1 : 0,
          iso(),
          code,
          iso(),
        ])) > 0
      );
    },

    async claimLoginCode(pollToken): Promise<LoginClaim | undefined> {
      const hash = sha256Hex(pollToken);
      const [row] = await sql.all<{ approved_team_id: number | null; approved_test: number; expires_at: string; claimed_at: string | null }>(
        'SELECT approved_team_id, approved_test, expires_at, claimed_at FROM login_codes WHERE poll_hash = ?',
        [hash],
      );
      if (!row) return undefined;
      if (row.claimed_at || row.expires_at <= iso()) return { state: 'expired' };
      if (row.approved_team_id === null) return { state: 'pending' };
      // One statement decides who spends the code: two polls at once get one key between them.
      const won = await sql.run('UPDATE login_codes SET claimed_at = ? WHERE poll_hash = ? AND claimed_at IS NULL', [iso(), hash]);
      if (won === 0) return { state: 'expired' };
      const teamId = Number(row.approved_team_id);
      const [team] = await sql.all<{ name: string }>('SELECT name FROM teams WHERE id = ?', [teamId]);
      // A code approved in a test key's session gives a test key: the CLI gets no more than the approver had.
      const test = Number(row.approved_test) === 1;
      return { state: 'approved', team: team.name, test, key: await insertKey(teamId, test) };
    },

    async countDay(teamId, day, delta) {
      await sql.run(countDaySql('VALUES (?, ?, ?)'), [teamId, day, delta]);
    },

    async dailyUsage(teamId, fromDay) {
      const rows = await sql.all<{ day: string; count: number }>('SELECT day, count FROM usage_daily WHERE team_id = ? AND day >= ? ORDER BY day', [teamId, fromDay]);
      return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
    },
  };
}
