/**
 * The monthly generation limit across nodes. A reservation takes one unit in one transaction:
 * the team's row is locked (so reservations of one team, on any node, queue for a moment),
 * and the count goes up only where it is still under the limit (a single conditional UPDATE).
 * Each unit held by a render in flight is a row with a lease: a node that dies mid-render
 * never settles its reservation, so once the lease has run out the unit is given back, by the
 * next reservation of that team or by the periodic purge, whichever comes first.
 */
import { randomUUID } from 'node:crypto';
import { checkMonth, limitExceeded } from '../generation-quota.js';
import { monthOf, toIso } from '../time.js';
import type { GenerationReservation } from '../types.js';
import { transaction, type Queryable } from './connect.js';
import type { PgContext, PgTeams } from './teams.js';
import { DEFAULT_RESERVATION_LEASE_MS } from '../reservation-lease.js';

export { DEFAULT_RESERVATION_LEASE_MS };

/** Gives back the units of expired reservations (of one team, or of all); answers how many. */
export async function reclaimExpired(db: Queryable, now: Date, teamId?: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM generation_reservations
        WHERE expires_at <= $1 AND ($2::int IS NULL OR team_id = $2)
        RETURNING team_id, month
     ), per_month AS (
       SELECT team_id, month, count(*)::int AS n FROM gone GROUP BY team_id, month
     ), given_back AS (
       UPDATE usage u SET count = GREATEST(u.count - p.n, 0)
         FROM per_month p WHERE u.team_id = p.team_id AND u.month = p.month
       RETURNING p.n
     )
     SELECT COALESCE(SUM(n), 0)::int AS n FROM given_back`,
    [toIso(now), teamId ?? null],
  );
  return rows[0]?.n ?? 0;
}

export function createPgGenerationQuota(ctx: PgContext, teams: PgTeams, leaseMs = DEFAULT_RESERVATION_LEASE_MS) {
  const { pool } = ctx;

  return {
    async reserveGeneration(teamId: number): Promise<GenerationReservation> {
      // The month is fixed at reservation: a release after midnight UTC on the 1st returns
      // the unit to the month it was taken from.
      const now = ctx.now();
      const month = monthOf(now);
      const id = randomUUID();
      const refused = await transaction(pool, async (db) => {
        // FOR NO KEY UPDATE: reservations of this team queue here, while rows that merely
        // reference the team (a publish, an issued file) are not held up.
        const team = await teams.requireTeamById(teamId, db, 'FOR NO KEY UPDATE');
        await reclaimExpired(db, now, teamId);
        await db.query('INSERT INTO usage (team_id, month, count) VALUES ($1, $2, 0) ON CONFLICT (team_id, month) DO NOTHING', [teamId, month]);
        const taken = await db.query('UPDATE usage SET count = count + 1 WHERE team_id = $1 AND month = $2 AND count < $3', [teamId, month, team.generationLimit]);
        if (taken.rowCount === 0) return team;
        await db.query('INSERT INTO generation_reservations (id, team_id, month, expires_at) VALUES ($1, $2, $3, $4)', [id, teamId, month, toIso(new Date(now.getTime() + leaseMs))]);
        return undefined;
      });
      if (refused) throw limitExceeded(refused, month);

      let settled = false;
      return {
        async commit() {
          if (settled) return;
          await transaction(pool, async (db) => {
            const { rowCount } = await db.query('DELETE FROM generation_reservations WHERE id = $1', [id]);
            // The lease ran out before the render finished and its unit was given back: the
            // document was made all the same, so it is counted again.
            if (rowCount === 0) {
              await db.query(
                'INSERT INTO usage (team_id, month, count) VALUES ($1, $2, 1) ON CONFLICT (team_id, month) DO UPDATE SET count = usage.count + 1',
                [teamId, month],
              );
            }
          });
          settled = true;
        },
        async release() {
          if (settled) return;
          // One statement: only the call that removes the reservation gives its unit back.
          await pool.query(
            `WITH gone AS (DELETE FROM generation_reservations WHERE id = $1 RETURNING team_id, month)
             UPDATE usage u SET count = u.count - 1 FROM gone
              WHERE u.team_id = gone.team_id AND u.month = gone.month AND u.count > 0`,
            [id],
          );
          // Only now: if giving back failed (the database unreachable), the caller may try again.
          settled = true;
        },
      };
    },

    async usage(teamId: number, month: string = monthOf(ctx.now())): Promise<number> {
      checkMonth(month);
      const { rows } = await pool.query<{ count: number }>(
        `SELECT u.count - (SELECT count(*) FROM generation_reservations r
                            WHERE r.team_id = u.team_id AND r.month = u.month AND r.expires_at <= $3)::int AS count
           FROM usage u WHERE u.team_id = $1 AND u.month = $2`,
        [teamId, month, toIso(ctx.now())],
      );
      return rows[0]?.count ?? 0;
    },
  };
}
