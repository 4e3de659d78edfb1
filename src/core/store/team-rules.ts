/** Teams' rules, the same in every store: a name's shape, a limit's range, a team as a row holds it. */
import { ImprintError } from '../errors.js';
import type { Team } from './types.js';

export const DEFAULT_GENERATION_LIMIT = 1000;

const TEAM_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export interface TeamRow {
  id: number;
  name: string;
  generation_limit: number;
  created_at: string;
}

export const TEAM_COLUMNS = 'id, name, generation_limit, created_at';

export const teamFromRow = (row: TeamRow): Team => ({
  id: row.id,
  name: row.name,
  generationLimit: row.generation_limit,
  createdAt: row.created_at,
});

export function validateTeamName(name: string): void {
  if (typeof name !== 'string' || !TEAM_NAME_PATTERN.test(name)) {
    throw new ImprintError(
      'INVALID_INPUT',
      `Invalid team name "${name}": use 1 to 64 letters, digits, "-", "_" or ".".`,
    );
  }
}

export function validateLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new ImprintError(
      'INVALID_INPUT',
      `Invalid generation limit ${String(limit)}: use a whole number of generations per month, 0 or more.`,
    );
  }
}
