/** Teams in SQLite: who owns templates, keys and a monthly generation limit (rules: ../team-rules.ts). */
import { ImprintError } from '../../errors.js';
import type { StoreContext } from './context.js';
import { DEFAULT_GENERATION_LIMIT, TEAM_COLUMNS, teamFromRow, validateLimit, validateTeamName, type TeamRow } from '../team-rules.js';
import { monthOf, toIso } from '../time.js';
import type { Team, TeamWithUsage } from '../types.js';

const isUniqueViolation = (error: unknown) =>
  (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';

export function createTeams(ctx: StoreContext) {
  const { db } = ctx;
  const byName = db.prepare<[string], TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE name = ?`);
  const byId = db.prepare<[number], TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = ?`);
  const insert = db.prepare<[string, number, string]>(
    'INSERT INTO teams (name, generation_limit, created_at) VALUES (?, ?, ?)',
  );
  // Several processes may ensure the same team at once: the loser of the race must not fail.
  const insertIfMissing = db.prepare<[string, number, string]>(
    'INSERT INTO teams (name, generation_limit, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const updateLimit = db.prepare<[number, string]>('UPDATE teams SET generation_limit = ? WHERE name = ?');
  const listWithUsage = db.prepare<[string], TeamRow & { used: number }>(
    `SELECT t.id, t.name, t.generation_limit, t.created_at, COALESCE(u.count, 0) AS used
       FROM teams t LEFT JOIN usage u ON u.team_id = t.id AND u.month = ?
      ORDER BY t.name`,
  );

  const getTeam = (name: string): Team | undefined => {
    const row = byName.get(name);
    return row && teamFromRow(row);
  };

  /** Team-scoped operations take a team id; an unknown one is a caller's mistake worth naming. */
  const requireTeamById = (teamId: number): Team => {
    const row = byId.get(teamId);
    if (!row) throw new ImprintError('NOT_FOUND', `No team with id ${teamId}. Create the team first.`);
    return teamFromRow(row);
  };

  const requireTeam = (name: string): Team => {
    const team = getTeam(name);
    if (!team) {
      throw new ImprintError('NOT_FOUND', `No team named "${name}". Check the name, or create the team first.`);
    }
    return team;
  };

  return {
    getTeam,
    requireTeam,
    requireTeamById,

    ensureTeam(name: string, limit = DEFAULT_GENERATION_LIMIT): Team {
      validateTeamName(name);
      validateLimit(limit);
      insertIfMissing.run(name, limit, toIso(ctx.now()));
      return requireTeam(name);
    },

    createTeam(name: string, limit = DEFAULT_GENERATION_LIMIT): Team {
      validateTeamName(name);
      validateLimit(limit);
      try {
        insert.run(name, limit, toIso(ctx.now()));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new ImprintError(
          'INVALID_INPUT',
          `A team named "${name}" already exists. Choose another name, or use the existing team.`,
        );
      }
      return requireTeam(name);
    },

    listTeams(): TeamWithUsage[] {
      return listWithUsage
        .all(monthOf(ctx.now()))
        .map((row) => ({ ...teamFromRow(row), usedThisMonth: row.used }));
    },

    setTeamLimit(name: string, limit: number): Team {
      validateLimit(limit);
      if (updateLimit.run(limit, name).changes === 0) requireTeam(name);
      return requireTeam(name);
    },
  };
}

export type Teams = ReturnType<typeof createTeams>;
