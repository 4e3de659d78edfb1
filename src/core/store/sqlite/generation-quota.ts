/**
 * The monthly generation limit. A render first reserves one unit, atomically and only while
 * the team is under its limit, so concurrent renders (in one process or several) can never
 * overshoot; a failed render gives its unit back, because only successful generations count.
 */
import type { StoreContext } from './context.js';
import { guardDatabase, immediate } from './database.js';
import { checkMonth, giveBackUnitsSql, limitExceeded, takeUnitsSql } from '../quota-rule.js';
import type { Teams } from './teams.js';
import { monthOf } from '../time.js';

/** A reservation as SQLite settles it, synchronously (index.ts hands it out as the port's promises). */
interface SyncReservation {
  commit(): void;
  release(): void;
}

export function createGenerationQuota(ctx: StoreContext, teams: Teams) {
  const { db } = ctx;
  const ensureRow = db.prepare<[number, string]>(
    'INSERT INTO usage (team_id, month, count) VALUES (?, ?, 0) ON CONFLICT (team_id, month) DO NOTHING',
  );
  // The check and the increment are one statement, and run under the write lock with the
  // limit read in the same transaction: no other process can slip in between.
  const take = db.prepare<[number, string, number]>(takeUnitsSql({ units: '1', teamId: '?', month: '?', limit: '?' }));
  const giveBack = db.prepare<[number, string]>(giveBackUnitsSql({ units: '1', teamId: '?', month: '?' }, 'MAX'));
  const countOf = db.prepare<[number, string], { count: number }>(
    'SELECT count FROM usage WHERE team_id = ? AND month = ?',
  );

  return {
    reserveGeneration(teamId: number): SyncReservation {
      // The month is fixed at reservation, so a release after midnight UTC on the 1st
      // returns the unit to the month it was taken from.
      const month = monthOf(ctx.now());
      const taken = immediate(db, () => {
        const team = teams.requireTeamById(teamId);
        ensureRow.run(teamId, month);
        return take.run(teamId, month, team.generationLimit).changes > 0 ? undefined : team;
      });
      if (taken !== undefined) throw limitExceeded(taken, month);
      let settled = false;
      return {
        commit() {
          settled = true;
        },
        release() {
          if (settled) return;
          guardDatabase(db.name, () => giveBack.run(teamId, month));
          // Only now: if giving back failed (database busy), the caller may try again.
          settled = true;
        },
      };
    },

    usage(teamId: number, month: string = monthOf(ctx.now())): number {
      checkMonth(month);
      return countOf.get(teamId, month)?.count ?? 0;
    },
  };
}
