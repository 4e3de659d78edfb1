/** API keys in PostgreSQL: only their SHA-256 is stored, as in the SQLite store (../sqlite/api-keys.ts). */
import { randomBytes } from 'node:crypto';
import { ImprintError } from '../../errors.js';
import { KEY_PREFIX } from '../api-key-format.js';
import { randomSecret, SECRET_PATTERN, sha256Hex } from '../crypto.js';
import { teamFromRow, type TeamRow } from '../team-rules.js';
import { toIso } from '../time.js';
import type { ApiKeyInfo, CreatedApiKey, Team } from '../types.js';
import type { PgContext, PgTeams } from './teams.js';

export function createPgApiKeys(ctx: PgContext, teams: PgTeams) {
  const { pool } = ctx;
  return {
    async createApiKey(teamName: string): Promise<CreatedApiKey> {
      const team = await teams.requireTeam(teamName);
      const keyId = `key_${randomBytes(6).toString('hex')}`;
      const key = KEY_PREFIX + randomSecret();
      await pool.query('INSERT INTO api_keys (id, team_id, key_hash, created_at) VALUES ($1, $2, $3, $4)', [keyId, team.id, sha256Hex(key), toIso(ctx.now())]);
      return { keyId, key };
    },

    async listApiKeys(teamName: string): Promise<ApiKeyInfo[]> {
      const team = await teams.requireTeam(teamName);
      const { rows } = await pool.query<{ id: string; created_at: string; revoked_at: string | null }>(
        'SELECT id, created_at, revoked_at FROM api_keys WHERE team_id = $1 ORDER BY created_at COLLATE "C", id COLLATE "C"',
        [team.id],
      );
      return rows.map((row) => ({ id: row.id, createdAt: row.created_at, revokedAt: row.revoked_at }));
    },

    async revokeApiKey(keyId: string): Promise<void> {
      // COALESCE keeps the first revocation time when a key is revoked twice.
      const { rowCount } = await pool.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2', [toIso(ctx.now()), keyId]);
      if (rowCount === 0) throw new ImprintError('NOT_FOUND', `No API key with id "${keyId}". List the team's keys to see their ids.`);
    },

    async authenticateKey(key: string): Promise<{ team: Team; keyId: string } | undefined> {
      // A malformed key cannot match; skip hashing whatever arbitrary string was sent.
      if (typeof key !== 'string' || !key.startsWith(KEY_PREFIX)) return undefined;
      if (!SECRET_PATTERN.test(key.slice(KEY_PREFIX.length))) return undefined;
      const { rows } = await pool.query<TeamRow & { key_id: string }>(
        `SELECT t.id, t.name, t.generation_limit, t.created_at, k.id AS key_id
           FROM api_keys k JOIN teams t ON t.id = k.team_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [sha256Hex(key)],
      );
      return rows[0] && { team: teamFromRow(rows[0]), keyId: rows[0].key_id };
    },
  };
}
