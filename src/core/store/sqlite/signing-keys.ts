/** Each team's sealed signing key (../signing-keys-migration.ts) in SQLite. */
import type { StoredSigningKey } from '../signing-keys-migration.js';
import { toIso } from '../time.js';
import type { StoreContext } from './context.js';
import { guardDatabase } from './database.js';
import type { Teams } from './teams.js';

export function createSigningKeys(ctx: StoreContext, teams: Teams) {
  const { db } = ctx;
  const upsert = db.prepare<[number, string, string, string, string]>(
    `INSERT INTO signing_keys (team_id, sealed, subject, not_after, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (team_id) DO UPDATE SET sealed = excluded.sealed, subject = excluded.subject, not_after = excluded.not_after, created_at = excluded.created_at`,
  );
  const read = db.prepare<[number], { sealed: string; subject: string; not_after: string; created_at: string }>('SELECT sealed, subject, not_after, created_at FROM signing_keys WHERE team_id = ?');
  const remove = db.prepare<[number]>('DELETE FROM signing_keys WHERE team_id = ?');
  return {
    setSigningKey(teamId: number, key: Omit<StoredSigningKey, 'createdAt'>): void {
      teams.requireTeamById(teamId);
      guardDatabase(db.name, () => upsert.run(teamId, key.sealed, key.subject, key.notAfter, toIso(ctx.now())));
    },
    getSigningKey(teamId: number): StoredSigningKey | undefined {
      const row = read.get(teamId);
      return row && { sealed: row.sealed, subject: row.subject, notAfter: row.not_after, createdAt: row.created_at };
    },
    removeSigningKey(teamId: number): boolean {
      return guardDatabase(db.name, () => remove.run(teamId).changes) > 0;
    },
  };
}
