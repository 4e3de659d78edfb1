/**
 * API keys. A key is shown once, at creation; the store keeps only its SHA-256, so a copy of
 * the data folder does not leak working keys. Lookup is by hash, so no timing-safe compare is
 * needed: an attacker timing the index lookup learns about hashes, not about keys.
 */
import { randomBytes } from 'node:crypto';
import { ImprintError } from '../../errors.js';
import { KEY_PREFIX } from '../api-key-format.js';
import type { StoreContext } from './context.js';
import { randomSecret, SECRET_PATTERN, sha256Hex } from '../crypto.js';
import { teamFromRow } from '../team-rules.js';
import type { Teams } from './teams.js';
import { toIso } from '../time.js';
import type { ApiKeyInfo, CreatedApiKey, Team } from '../types.js';

export function createApiKeys(ctx: StoreContext, teams: Teams) {
  const { db } = ctx;
  const insert = db.prepare<[string, number, string, string]>(
    'INSERT INTO api_keys (id, team_id, key_hash, created_at) VALUES (?, ?, ?, ?)',
  );
  const listForTeam = db.prepare<[number], { id: string; created_at: string; revoked_at: string | null }>(
    'SELECT id, created_at, revoked_at FROM api_keys WHERE team_id = ? ORDER BY created_at, id',
  );
  // COALESCE keeps the first revocation time when a key is revoked twice (the row still
  // counts as changed, so `changes === 0` means only "no such key").
  const revoke = db.prepare<[string, string]>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?',
  );
  const teamForHash = db.prepare<[string], { id: number; name: string; generation_limit: number; created_at: string; key_id: string }>(
    `SELECT t.id, t.name, t.generation_limit, t.created_at, k.id AS key_id
       FROM api_keys k JOIN teams t ON t.id = k.team_id
      WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );

  function authenticateKey(key: string): { team: Team; keyId: string } | undefined {
    // A malformed key cannot match; skip hashing whatever arbitrary string was sent.
    if (typeof key !== 'string' || !key.startsWith(KEY_PREFIX)) return undefined;
    if (!SECRET_PATTERN.test(key.slice(KEY_PREFIX.length))) return undefined;
    const row = teamForHash.get(sha256Hex(key));
    return row && { team: teamFromRow(row), keyId: row.key_id };
  }

  return {
    createApiKey(teamName: string): CreatedApiKey {
      const team = teams.requireTeam(teamName);
      const keyId = `key_${randomBytes(6).toString('hex')}`;
      const key = KEY_PREFIX + randomSecret();
      insert.run(keyId, team.id, sha256Hex(key), toIso(ctx.now()));
      return { keyId, key };
    },

    listApiKeys(teamName: string): ApiKeyInfo[] {
      const team = teams.requireTeam(teamName);
      return listForTeam
        .all(team.id)
        .map((row) => ({ id: row.id, createdAt: row.created_at, revokedAt: row.revoked_at }));
    },

    revokeApiKey(keyId: string): void {
      if (revoke.run(toIso(ctx.now()), keyId).changes === 0) {
        throw new ImprintError('NOT_FOUND', `No API key with id "${keyId}". List the team's keys to see their ids.`);
      }
    },

    authenticateKey,
  };
}
