/**
 * Documents per day, for the dashboard's usage chart: each counted document adds one to its
 * team's day, the day it was made: a render or generate that succeeded and counted (its
 * generation committed), here; a job row that rendered, by the job store itself, in the
 * statement that records the row's outcome (once, however often the row was tried; not a test
 * key's job: finishRow in core/store/sqlite/jobs.ts and postgres/jobs.ts). What the limit does not count is not charted
 * either: test keys' renders take no generation. The monthly count stays the limit's one
 * source; this is only the chart's, so a failed write is logged, not the render's failure.
 */
import type { Store } from '../../core/store/index.js';
import { dayOf, type Clock } from '../../core/store/time.js';

export function withDailyUsage(store: Store, now: Clock, onError: (error: unknown) => void): Store {
  const countToday = (teamId: number) => store.dashboard.countDay(teamId, dayOf(now()), 1).catch(onError);

  return {
    ...store,
    async reserveGeneration(teamId) {
      const reservation = await store.reserveGeneration(teamId);
      return {
        release: () => reservation.release(),
        async commit() {
          await reservation.commit();
          void countToday(teamId);
        },
      };
    },
  };
}
