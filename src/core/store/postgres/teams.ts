/** Teams in PostgreSQL: the same rules and words as the SQLite store (../sqlite/teams.ts, rules in ../team-rules.ts). */
import { ImprintError } from '../../errors.js';
import { DEFAULT_GENERATION_LIMIT, TEAM_COLUMNS, teamFromRow, validateLimit, validateTeamName, type TeamRow } from '../team-rules.js';
import { monthOf, toIso, type Clock } from '../time.js';
import type { Team, TeamWithUsage } from '../types.js';
import { isUniqueViolation, type Pool, type Queryable } from './connect.js';

export interface PgContext {
  pool: Pool;
  now: Clock;
}

export function createPgTeams(ctx: PgContext) {
  const { pool } = ctx;

  const getTeam = async (name: string, db: Queryable = pool): Promise<Team | undefined> => {
    const { rows } = await db.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE name = $1`, [name]);
    return rows[0] && teamFromRow(rows[0]);
  };

  const requireTeamById = async (teamId: number, db: Queryable = pool, lock = ''): Promise<Team> => {
    const { rows } = await db.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = $1 ${lock}`, [teamId]);
    if (!rows[0]) throw new ImprintError('NOT_FOUND', `No team with id ${teamId}. Create the team first.`);
    return teamFromRow(rows[0]);
  };

  const requireTeam = async (name: string): Promise<Team> => {
    const team = await getTeam(name);
    if (!team) throw new ImprintError('NOT_FOUND', `No team named "${name}". Check the name, or create the team first.`);
    return team;
  };

  return {
    getTeam: (name: string) => getTeam(name),
    requireTeam,
    requireTeamById,

    async ensureTeam(name: string, limit = DEFAULT_GENERATION_LIMIT): Promise<Team> {
      validateTeamName(name);
      validateLimit(limit);
      // Several nodes may ensure the same team at once: the loser of the race must not fail.
      await pool.query('INSERT INTO teams (name, generation_limit, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, limit, toIso(ctx.now())]);
      return requireTeam(name);
    },

    async createTeam(name: string, limit = DEFAULT_GENERATION_LIMIT): Promise<Team> {
      validateTeamName(name);
      validateLimit(limit);
      try {
        await pool.query('INSERT INTO teams (name, generation_limit, created_at) VALUES ($1, $2, $3)', [name, limit, toIso(ctx.now())]);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new ImprintError('INVALID_INPUT', `A team named "${name}" already exists. Choose another name, or use the existing team.`);
      }
      return requireTeam(name);
    },

    async listTeams(): Promise<TeamWithUsage[]> {
      const now = ctx.now();
      // Units held by reservations whose lease ran out are not counted (usage.ts gives them back).
      const { rows } = await pool.query<TeamRow & { used: number }>(
        `SELECT t.id, t.name, t.generation_limit, t.created_at,
                COALESCE(u.count, 0) - (SELECT count(*) FROM generation_reservations r
                                         WHERE r.team_id = t.id AND r.month = $1 AND r.expires_at <= $2)::int AS used
           FROM teams t LEFT JOIN usage u ON u.team_id = t.id AND u.month = $1
          ORDER BY t.name COLLATE "C"`,
        [monthOf(now), toIso(now)],
      );
      return rows.map((row) => ({ ...teamFromRow(row), usedThisMonth: row.used }));
    },

    async setTeamLimit(name: string, limit: number): Promise<Team> {
      validateLimit(limit);
      const { rowCount } = await pool.query('UPDATE teams SET generation_limit = $1 WHERE name = $2', [limit, name]);
      if (rowCount === 0) await requireTeam(name);
      return requireTeam(name);
    },
  };
}

export type PgTeams = ReturnType<typeof createPgTeams>;
