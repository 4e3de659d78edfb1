/** Each team's sealed signing key (../signing-keys-migration.ts) in PostgreSQL. */
import type { StoredSigningKey } from '../signing-keys-migration.js';
import { toIso } from '../time.js';
import type { PgContext, PgTeams } from './teams.js';

export function createPgSigningKeys(ctx: PgContext, teams: PgTeams) {
  const { pool } = ctx;
  return {
    async setSigningKey(teamId: number, key: Omit<StoredSigningKey, 'createdAt'>): Promise<void> {
      await teams.requireTeamById(teamId);
      await pool.query(
        `INSERT INTO signing_keys (team_id, sealed, subject, not_after, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (team_id) DO UPDATE SET sealed = excluded.sealed, subject = excluded.subject, not_after = excluded.not_after, created_at = excluded.created_at`,
        [teamId, key.sealed, key.subject, key.notAfter, toIso(ctx.now())],
      );
    },
    async getSigningKey(teamId: number): Promise<StoredSigningKey | undefined> {
      const { rows } = await pool.query<{ sealed: string; subject: string; not_after: string; created_at: string }>('SELECT sealed, subject, not_after, created_at FROM signing_keys WHERE team_id = $1', [teamId]);
      const row = rows[0];
      return row && { sealed: row.sealed, subject: row.subject, notAfter: row.not_after, createdAt: row.created_at };
    },
    async removeSigningKey(teamId: number): Promise<boolean> {
      return ((await pool.query('DELETE FROM signing_keys WHERE team_id = $1', [teamId])).rowCount ?? 0) > 0;
    },
  };
}
