/** The words of a batch's progress: count, rate and time left, from the counts and the clock. */
import type { BatchCounts, BatchSummary } from './run-batch.js';

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Rows rendered per second so far; skipped rows cost nothing and are left out. */
function rate(counts: BatchCounts, elapsedMs: number): number {
  const worked = counts.done - counts.skipped;
  return elapsedMs > 0 ? (worked * 1000) / elapsedMs : 0;
}

export function progressText(counts: BatchCounts, elapsedMs: number): string {
  const perSecond = rate(counts, elapsedMs);
  const left = counts.total - counts.done;
  const eta = perSecond > 0 && left > 0 ? ` · ETA ${formatDuration((left / perSecond) * 1000)}` : '';
  const failed = counts.failed ? ` (${counts.failed} failed)` : '';
  return `Rendered ${counts.done}/${counts.total}${failed} · ${perSecond.toFixed(1)} docs/s${eta}`;
}

export function summaryText(summary: BatchSummary, outDirLabel: string): string {
  const perSecond = summary.durationMs > 0 ? ((summary.ok + summary.failed) * 1000) / summary.durationMs : 0;
  const skipped = summary.skipped ? `, ${summary.skipped} skipped (already there)` : '';
  const busyAnswers = summary.rows.reduce((sum, row) => sum + (row.busy ?? 0), 0);
  const busy = busyAnswers ? `; the service was busy ${busyAnswers} time${busyAnswers > 1 ? 's' : ''} and was asked again` : '';
  return `Rendered ${summary.ok} of ${summary.total} rows into ${outDirLabel} in ${formatDuration(summary.durationMs)} (${perSecond.toFixed(1)} docs/s)${skipped}${busy}`;
}

/** Which progress lines a non-interactive run prints: every tenth of the batch. */
export function crossedTenth(done: number, total: number): boolean {
  if (total === 0) return false;
  return Math.floor((done * 10) / total) > Math.floor(((done - 1) * 10) / total);
}
