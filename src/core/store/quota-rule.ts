/**
 * The generation limit's rule, written once for both stores and for both ways units are taken
 * (a render reserves 1, a job takes one per row at submit): units are taken from a team's month
 * only while the count stays at or under the limit, in one conditional UPDATE, so two takers at
 * once can never both pass it (the statement that changes no row is the refusal); units given
 * back never take the count under 0. Each store binds values its own way: the arguments are SQL
 * expressions (a placeholder, a literal, a subquery).
 */
import { ImprintError } from '../errors.js';
import { MONTH_PATTERN } from './time.js';
import type { Team } from './types.js';

export interface QuotaTerms {
  units: string;
  teamId: string;
  month: string;
}

/** Takes `units` if they fit under `limit`; no row changed: they do not fit. */
export const takeUnitsSql = (terms: QuotaTerms & { limit: string }) =>
  `UPDATE usage SET count = count + ${terms.units} WHERE team_id = ${terms.teamId} AND month = ${terms.month} AND count + ${terms.units} <= ${terms.limit}`;

/** Gives `units` back to the month they were taken from; `greatest` is the dialect's two-argument maximum (SQLite MAX, PostgreSQL GREATEST). */
export const giveBackUnitsSql = (terms: QuotaTerms, greatest: 'MAX' | 'GREATEST') =>
  `UPDATE usage SET count = ${greatest}(count - ${terms.units}, 0) WHERE team_id = ${terms.teamId} AND month = ${terms.month}`;

/** The answer to a team over its limit, the same from every store. */
export function limitExceeded(team: Team, month: string): ImprintError {
  const used =
    team.generationLimit === 0
      ? `Team "${team.name}" has a generation limit of 0, so it cannot generate documents in ${month} (UTC).`
      : `Team "${team.name}" has used all ${team.generationLimit} generations allowed for ${month} (UTC).`;
  return new ImprintError(
    'LIMIT_EXCEEDED',
    `${used} The count starts again next month; ask the operator of this Imprint service to raise the limit if you need more now.`,
  );
}

/** A month as usage() takes it, checked the same by every store. */
export function checkMonth(month: string): void {
  if (!MONTH_PATTERN.test(month)) {
    throw new ImprintError('INVALID_INPUT', `Invalid month "${month}": use YYYY-MM, e.g. 2025-01.`);
  }
}
