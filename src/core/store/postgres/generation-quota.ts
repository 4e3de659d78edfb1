/**
 * The monthly generation limit across nodes. A reservation takes one unit in one transaction:
 * the team's row is locked (so reservations of one team, on any node, queue for a moment),
 * and the count goes up only where it is still under the limit (a single conditional UPDATE).
 * Each unit held by a render in flight is a row with a lease: a node that dies mid-render
 * never settles its reservation, so once the lease has run out the unit is given back, by the
 * next reservation of that team or by the periodic purge, whichever comes first.
 */
import { randomUUID } from 'node:crypto';
import { checkMonth, limitExceeded } from '../quota-rule.js';
import { monthOf, toIso } from '../time.js';
import { takeUnitsSql } from '../quota-rule.js';
import type { GenerationReservation } from '../types.js';
import pg from 'pg';
import { TEAM_COLUMNS, teamFromRow, type TeamRow } from '../team-rules.js';
import type { Queryable } from './connect.js';
import type { PgContext, PgTeams } from './teams.js';
import { DEFAULT_RESERVATION_LEASE_MS } from '../reservation-lease.js';

export { DEFAULT_RESERVATION_LEASE_MS };

/**
 * The statement that gives back the units of expired reservations of one team (or of all, when
 * `teamId` is NULL), answering how many; `now` and `teamId` are SQL expressions (parameters,
 * or literals in a batch).
 */
const reclaimStatement = (now: string, teamId: string) =>
  `WITH gone AS (
     DELETE FROM generation_reservations
      WHERE expires_at <= ${now} AND (${teamId}::int IS NULL OR team_id = ${teamId}::int)
      RETURNING team_id, month
   ), per_month AS (
     SELECT team_id, month, count(*)::int AS n FROM gone GROUP BY team_id, month
   ), given_back AS (
     UPDATE usage u SET count = GREATEST(u.count - p.n, 0)
       FROM per_month p WHERE u.team_id = p.team_id AND u.month = p.month
     RETURNING p.n
   )
   SELECT COALESCE(SUM(n), 0)::int AS n FROM given_back`;

/** Gives back the units of expired reservations (of one team, or of all); answers how many. */
export async function reclaimExpired(db: Queryable, now: Date, teamId?: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(reclaimStatement('$1', '$2'), [toIso(now), teamId ?? null]);
  return rows[0]?.n ?? 0;
}

/**
 * One reservation as one batch of statements, sent in one round trip: PostgreSQL runs the
 * statements of one simple query as one transaction, each with its own snapshot, so this is the
 * transaction it always was (lock the team's row, give back its expired units, make sure the
 * month's row exists, take a unit only under the limit and record its lease) without a round
 * trip per statement: a render pays for its count once, not seven times. A batch takes no
 * parameters, so every value is a number checked here or a literal escaped by the driver.
 */
function reservationBatch(teamId: number, month: string, id: string, now: string, expiresAt: string): string {
  if (!Number.isSafeInteger(teamId)) throw new TypeError(`Invalid team id ${String(teamId)}`);
  const [m, n] = [pg.escapeLiteral(month), pg.escapeLiteral(now)];
  return [
    // FOR NO KEY UPDATE: reservations of this team queue here, while rows that merely
    // reference the team (a publish, an issued file) are not held up.
    `SELECT ${TEAM_COLUMNS} FROM teams WHERE id = ${teamId} FOR NO KEY UPDATE`,
    reclaimStatement(n, String(teamId)),
    `INSERT INTO usage (team_id, month, count) SELECT id, ${m}, 0 FROM teams WHERE id = ${teamId} ON CONFLICT (team_id, month) DO NOTHING`,
    `WITH taken AS (
       ${takeUnitsSql({ units: '1', teamId: String(teamId), month: m, limit: `(SELECT generation_limit FROM teams WHERE id = ${teamId})` })}
        RETURNING team_id
     )
     INSERT INTO generation_reservations (id, team_id, month, expires_at)
     SELECT ${pg.escapeLiteral(id)}, team_id, ${m}, ${pg.escapeLiteral(expiresAt)} FROM taken RETURNING id`,
  ].join(';\n');
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
      const results = (await pool.query(reservationBatch(teamId, month, id, toIso(now), toIso(new Date(now.getTime() + leaseMs))))) as unknown as pg.QueryResult[];
      const teamRow = results[0].rows[0] as TeamRow | undefined;
      // No such team: the same error as every other call that names one.
      if (!teamRow) await teams.requireTeamById(teamId);
      if (results[3].rowCount === 0) throw limitExceeded(teamFromRow(teamRow!), month);

      let settled = false;
      return {
        async commit() {
          if (settled) return;
          // One statement: the reservation goes, its unit stays counted. If the lease ran out
          // before the render finished and its unit was given back, the document was made all
          // the same, so it is counted again.
          await pool.query(
            `WITH gone AS (DELETE FROM generation_reservations WHERE id = $1 RETURNING id)
             INSERT INTO usage (team_id, month, count) SELECT $2::int, $3::text, 1 WHERE NOT EXISTS (SELECT 1 FROM gone)
             ON CONFLICT (team_id, month) DO UPDATE SET count = usage.count + 1`,
            [id, teamId, month],
          );
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
