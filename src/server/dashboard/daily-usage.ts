/**
 * Documents per day, for the dashboard's usage chart: each counted document adds one to its
 * team's day, the day it was made: a render or generate that succeeded and counted (its
 * generation committed), and a job row that rendered (its outcome recorded, once, however
 * often the row was tried). What the limit does not count is not charted either: test keys'
 * renders take no generation, test keys' job rows are left out here. The monthly count stays
 * the limit's one source; this is only the chart's, so a failed write is logged, not the
 * render's failure.
 */
import type { JobStore } from '../../core/jobs/job-types.js';
import type { Store } from '../../core/store/index.js';
import { unitsPerRow } from '../../core/store/job-records.js';
import type { Clock } from '../../core/store/time.js';

/** Jobs whose rows are being recorded on this node: their team and whether they count (specs never change). */
const JOBS_REMEMBERED = 256;

export function withDailyUsage(store: Store, now: Clock, onError: (error: unknown) => void): Store {
  const countToday = (teamId: number) => store.dashboard.countDay(teamId, now().toISOString().slice(0, 10), 1).catch(onError);

  const jobs = new Map<string, { teamId: number; counted: boolean }>();
  async function jobOf(jobId: string) {
    let known = jobs.get(jobId);
    if (!known) {
      const job = await store.jobs.jobById(jobId);
      if (!job) return undefined;
      known = { teamId: job.teamId, counted: unitsPerRow(job.spec) > 0 };
      if (jobs.size >= JOBS_REMEMBERED) jobs.delete(jobs.keys().next().value as string);
      jobs.set(jobId, known);
    }
    return known;
  }

  const jobStore: JobStore = {
    ...store.jobs,
    async finishRow(claim, result) {
      const finished = await store.jobs.finishRow(claim, result);
      // Only the call that moved the row to done counts it (a late claim's changes nothing).
      // Awaited (one small write, its failure logged) so the worker moves on with the day counted.
      if (finished.applied && result.ok) {
        try {
          const job = await jobOf(claim.jobId);
          if (job?.counted) await countToday(job.teamId);
        } catch (error) {
          onError(error);
        }
      }
      return finished;
    },
  };

  return {
    ...store,
    jobs: jobStore,
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
