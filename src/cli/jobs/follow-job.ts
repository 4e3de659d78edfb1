/**
 * Follows a job on the service until it is over, or until the caller stops watching: reads
 * the job's stream (GET /api/jobs/{id}/stream: each finished row as it finishes, with its PDF,
 * on one answer), writing each PDF atomically under its file name as it arrives, so an
 * interrupted run never leaves half a file. When the stream cannot be had or ends before the
 * job (a service without it, a restart), it polls the job's status instead and downloads each
 * row's PDF as soon as the service reports it finished, skipping the rows it has; polling
 * starts fast and slows down while nothing changes.
 *
 * Everything it touches is handed in (the client's calls, the file system, the clock), so
 * `render --batch`, `generate --batch` and `jobs wait` share it and a unit test can drive it.
 */
import path from 'node:path';
import pLimit from 'p-limit';
import { FINISHED_JOB_STATUSES, isDeliveredRow, type JobDetails, type JobRowOutcome, type JobStreamEvent } from '../../client/job-types.js';
import type { RowOutcome } from '../batch/run-batch.js';
import { isRetryable } from '../batch/retry.js';
import type { JobManifest } from './job-manifest.js';

export interface FollowPlan {
  jobId: string;
  outDir: string;
  /** Job row n's input row and file name, from the run that submitted it; else the service's names. */
  names?: JobManifest['rows'];
  /**
   * `jobs wait`: a file already at a row's name was written (atomically) by an earlier run and
   * is kept, not fetched again. A fresh batch overwrites, as a local batch does.
   */
  keepExisting: boolean;
  downloadConcurrency: number;
  /** The shortest and longest wait between polls (nextPollDelay), and between tries after a failure. */
  pollMs: { min: number; max: number };
  /**
   * How long a service that cannot be reached or answers 5xx/429 is asked again, for a poll or
   * a download, before the error stands: a job outlives a restart of the service, and so
   * should the waiting on it.
   */
  patienceMs: number;
}

export interface FollowCounts {
  /** The job's rows and the service's counts, from its last status. */
  total: number;
  done: number;
  failed: number;
  /** Rows whose PDF this run wrote. */
  downloaded: number;
  /** Rows whose file was already there (jobs wait). */
  kept: number;
  /** Rows the service had finished (done or failed) when this run first looked: the rate leaves them out. */
  finishedBefore: number;
}

export interface FollowDeps {
  getJob(id: string): Promise<JobDetails>;
  /** The job's stream, tried first; absent or failing: polling alone. */
  stream?(id: string, signal?: AbortSignal): AsyncIterable<JobStreamEvent>;
  download(url: string): Promise<Buffer>;
  /** Writes a whole file or nothing (temp file + rename). */
  write(file: string, data: Buffer): void;
  exists(file: string): boolean;
  now(): number;
  /** Resolves after `ms`, or at once when `signal` is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** After every poll. */
  onStatus(job: JobDetails, counts: FollowCounts): void;
  /** Every row's outcome as it is settled, in that order. */
  onRow(outcome: RowOutcome, counts: FollowCounts): void;
  /** Aborted: stop watching (Ctrl-C). Downloads under way finish and are written; the job runs on. */
  signal?: AbortSignal;
}

export interface FollowResult {
  /** The last status seen. */
  job: JobDetails;
  /** By input row. */
  rows: RowOutcome[];
  counts: FollowCounts;
  /** The caller stopped watching before the job was over. */
  interrupted: boolean;
  /** Rows the service delivered whose PDF could not be fetched (a later `jobs wait` may). */
  downloadFailures: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A name from the service is used as one file name in the folder, never as a path. */
function safeName(name: string | undefined, row: number): string {
  const base = name === undefined ? '' : path.basename(name.replace(/\\/g, '/'));
  return base === '' || base === '.' || base === '..' ? `${row}.pdf` : base;
}

/**
 * How long to wait before the next status poll. Every poll answers all of the job's finished
 * rows, so polling at a fixed short interval costs the service work that grows with the job's
 * square; instead the wait is the time the service takes, at the rate seen so far, to finish
 * about a fiftieth of the job (at least a few rows), within [min, max]. So a job of any size
 * is polled some fifty times plus a few, and the downloads still keep pace with the rows.
 * Before any row has finished (no rate yet) the wait grows by half each time, from min.
 */
export function nextPollDelay(state: { total: number; finishedSince: number; elapsedMs: number; previousMs?: number }, limits: { min: number; max: number }): number {
  const clamp = (ms: number) => Math.round(Math.min(limits.max, Math.max(limits.min, ms)));
  if (state.finishedSince <= 0 || state.elapsedMs <= 0) return clamp(state.previousMs === undefined ? limits.min : state.previousMs * 1.5);
  const perMs = state.finishedSince / state.elapsedMs;
  const rowsPerPoll = Math.max(8, Math.ceil(state.total / 50));
  return clamp(rowsPerPoll / perMs);
}

/** Job rows are numbered from 1 in the order they were sent (api.md Part D: `row`). */
export function rowIdentity(outcome: Pick<JobRowOutcome, 'row'> & { name?: string }, names: FollowPlan['names']): { row: number; name: string } {
  const known = names?.[outcome.row - 1];
  return known ?? { row: outcome.row, name: safeName(outcome.name, outcome.row) };
}

export async function followJob(plan: FollowPlan, deps: FollowDeps): Promise<FollowResult> {
  const handled = new Set<number>();
  const outcomes: RowOutcome[] = [];
  const downloads: Promise<void>[] = [];
  const limit = pLimit(plan.downloadConcurrency);
  const counts: FollowCounts = { total: 0, done: 0, failed: 0, downloaded: 0, kept: 0, finishedBefore: -1 };
  const stopped = () => deps.signal?.aborted === true;
  let downloadFailures = 0;

  const settle = (outcome: RowOutcome) => {
    outcomes.push(outcome);
    if (outcome.status === 'ok') counts.downloaded++;
    if (outcome.status === 'skipped') counts.kept++;
    deps.onRow(outcome, { ...counts });
  };

  /**
   * `work` until it succeeds, a failure not worth another try, or `patienceMs` of failures in a
   * row; the waits double from pollMs.min to pollMs.max. `tries` counts the calls made.
   */
  async function patiently<T>(work: () => Promise<T>, tries: { count: number } = { count: 0 }): Promise<T> {
    let failingSince: number | undefined;
    for (let failures = 0; ; ) {
      try {
        tries.count++;
        return await work();
      } catch (error) {
        failingSince ??= deps.now();
        if (!isRetryable(error) || stopped() || deps.now() - failingSince >= plan.patienceMs) throw error;
        failures++;
        await deps.sleep(Math.min(plan.pollMs.max, plan.pollMs.min * 2 ** (failures - 1)), deps.signal);
      }
    }
  }

  async function fetchRow(row: number, name: string, url: string): Promise<void> {
    const file = path.join(plan.outDir, name);
    const started = deps.now();
    const tries = { count: 0 };
    try {
      const pdf = await patiently(() => deps.download(url), tries);
      deps.write(file, pdf);
      settle({ row, status: 'ok', file: name, bytes: pdf.length, attempts: tries.count, ms: Math.round(deps.now() - started) });
    } catch (error) {
      downloadFailures++;
      settle({ row, status: 'failed', file: name, attempts: tries.count, error: `its PDF could not be downloaded: ${messageOf(error)}` });
    }
  }

  function take(outcome: JobRowOutcome) {
    const { row, name } = rowIdentity(outcome, plan.names);
    if (!isDeliveredRow(outcome)) {
      settle({ row, status: 'failed', file: name, attempts: 1, error: outcome.error });
      return;
    }
    if (plan.keepExisting && deps.exists(path.join(plan.outDir, name))) {
      settle({ row, status: 'skipped', file: name, attempts: 0 });
      return;
    }
    // Queued downloads that have not started when the caller stops watching are left for `jobs wait`.
    downloads.push(limit(() => (stopped() ? undefined : fetchRow(row, name, outcome.url))));
  }

  /** A row's PDF that came with its outcome (the stream): written here, no download. */
  function keep(outcome: Extract<JobRowOutcome, { url: string }>, pdf: Buffer) {
    const { row, name } = rowIdentity(outcome, plan.names);
    const file = path.join(plan.outDir, name);
    if (plan.keepExisting && deps.exists(file)) return settle({ row, status: 'skipped', file: name, attempts: 0 });
    try {
      deps.write(file, pdf);
    } catch (error) {
      downloadFailures++;
      return settle({ row, status: 'failed', file: name, attempts: 1, error: `its PDF could not be written: ${messageOf(error)}` });
    }
    settle({ row, status: 'ok', file: name, bytes: pdf.length, attempts: 1, ms: 0 });
  }

  const seen = (current: JobDetails) => {
    Object.assign(counts, { total: current.total, done: current.done, failed: current.failed });
    if (counts.finishedBefore < 0) counts.finishedBefore = current.done + current.failed;
  };

  let job: JobDetails | undefined;
  if (deps.stream && !stopped()) {
    try {
      for await (const event of deps.stream(plan.jobId, deps.signal)) {
        if ('job' in event) {
          job = event.job;
          seen(job);
          deps.onStatus(job, { ...counts });
          continue;
        }
        if (handled.has(event.row.row)) continue;
        handled.add(event.row.row);
        if (event.pdf && isDeliveredRow(event.row)) keep(event.row, event.pdf);
        else take(event.row);
      }
    } catch {
      // Polling below takes over (or, stopped, ends the watch): it skips the rows handled here,
      // and its own errors (an unknown job, a key refused) are the ones worth reporting.
    }
  }
  let wait: number | undefined;
  const started = deps.now();
  while (!stopped() && !(job && FINISHED_JOB_STATUSES.has(job.status))) {
    try {
      job = await patiently(() => deps.getJob(plan.jobId));
    } catch (error) {
      // Ctrl-C while the service was away: stopped, not failed.
      if (stopped()) break;
      throw error;
    }
    seen(job);
    for (const outcome of job.rows ?? []) {
      if (handled.has(outcome.row)) continue;
      handled.add(outcome.row);
      take(outcome);
    }
    deps.onStatus(job, { ...counts });
    if (FINISHED_JOB_STATUSES.has(job.status)) break;
    const finishedSince = job.done + job.failed - counts.finishedBefore;
    wait = nextPollDelay({ total: job.total, finishedSince, elapsedMs: deps.now() - started, previousMs: wait }, plan.pollMs);
    await deps.sleep(wait, deps.signal);
  }
  await Promise.all(downloads);

  const interrupted = job === undefined || !FINISHED_JOB_STATUSES.has(job.status);
  if (job && !interrupted) {
    // A finished job's rows without an outcome were never started: cancelled, or lost to the service.
    for (let row = 1; row <= job.total; row++) {
      if (handled.has(row)) continue;
      const identity = rowIdentity({ row }, plan.names);
      const why = job.status === 'cancelled' ? 'the job was cancelled before this row was rendered' : 'the service reported no outcome for this row';
      settle({ row: identity.row, status: 'failed', file: identity.name, attempts: 0, error: why });
    }
  }
  if (job === undefined) job = { id: plan.jobId, status: 'queued', total: 0, done: 0, failed: 0 };
  outcomes.sort((a, b) => a.row - b.row);
  return { job, rows: outcomes, counts: { ...counts, finishedBefore: Math.max(0, counts.finishedBefore) }, interrupted, downloadFailures };
}
