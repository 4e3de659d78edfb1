/**
 * Documents per day, for the dashboard's usage chart: each committed generation (a render or
 * generate that succeeded and counted) also adds one to its team's day. The monthly count
 * stays the limit's one source; this is only the chart's, so a failed write is logged, not
 * the render's failure. Job rows are counted when their job is submitted (core/jobs), not here.
 */
import type { Store } from '../../core/store/index.js';
import type { Clock } from '../../core/store/time.js';

export function withDailyUsage(store: Store, now: Clock, onError: (error: unknown) => void): Store {
  return {
    ...store,
    async reserveGeneration(teamId) {
      const reservation = await store.reserveGeneration(teamId);
      return {
        release: () => reservation.release(),
        async commit() {
          await reservation.commit();
          store.dashboard.countDay(teamId, now().toISOString().slice(0, 10), 1).catch(onError);
        },
      };
    },
  };
}
