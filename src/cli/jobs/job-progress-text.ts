/** The words of a job's progress while the CLI waits on it: the service's counts, downloads, rate, time left. */
import { formatDuration } from '../batch/progress-text.js';
import type { FollowCounts } from './follow-job.js';

/**
 * Rows the service finished per second since this run started watching: rows it had finished
 * before (a `jobs wait` on a job half done) are left out, or the rate would start inflated.
 */
export function jobRate(counts: FollowCounts, elapsedMs: number): number {
  const finished = counts.done + counts.failed - counts.finishedBefore;
  return elapsedMs > 0 && finished > 0 ? (finished * 1000) / elapsedMs : 0;
}

export function jobProgressText(counts: FollowCounts, elapsedMs: number): string {
  const perSecond = jobRate(counts, elapsedMs);
  const left = counts.total - counts.done - counts.failed;
  const eta = perSecond > 0 && left > 0 ? ` · ETA ${formatDuration((left / perSecond) * 1000)}` : '';
  const failed = counts.failed ? ` (${counts.failed} failed)` : '';
  const kept = counts.kept ? `, ${counts.kept} already there` : '';
  return `${counts.done + counts.failed}/${counts.total} rendered${failed} · ${counts.downloaded} downloaded${kept} · ${perSecond.toFixed(1)} docs/s${eta}`;
}

/** Which plain (non-terminal) lines a wait prints: one each time the finished rows cross another tenth of the job. */
export function tenthOf(counts: Pick<FollowCounts, 'done' | 'failed' | 'total'>): number {
  return counts.total > 0 ? Math.floor(((counts.done + counts.failed) * 10) / counts.total) : 0;
}
