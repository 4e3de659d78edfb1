/**
 * Waiting on a job at the terminal, for `render --batch`/`generate --batch` in remote mode and
 * for `imprint jobs wait`: progress on stderr, each row's PDF downloaded as it finishes, the
 * summary file and line, and Ctrl-C. Ctrl-C stops the watching only: the job keeps running on
 * the service, the PDFs already downloaded stay, and the message says how to come back. A
 * second Ctrl-C ends the process at once; every file is written atomically, so none is left half.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JobDetails } from '../../client/job-types.js';
import { ImprintError, isImprintError } from '../../core/errors.js';
import { summaryText } from '../batch/progress-text.js';
import type { BatchSummary, RowOutcome } from '../batch/run-batch.js';
import { writeFileAtomically } from '../io/write-output.js';
import { startJobProgress } from '../ui/job-progress.js';
import { done } from '../ui/status.js';
import { followJob, type FollowResult } from './follow-job.js';
import { manifestPath, type JobManifest } from './job-manifest.js';
import type { JobsApi } from './jobs-api.js';

/** PDFs fetched at once while the job runs: enough to keep up with a service's pool over loopback or a LAN. */
export const DOWNLOAD_CONCURRENCY = 4;
/** The shortest and longest wait between status polls (follow-job.ts, nextPollDelay). */
const POLL_MS = { min: 250, max: 5_000 };
/**
 * A job outlives a restart of the service (api.md Part D), so the wait does too: an
 * unreachable or failing service is asked again for a minute before the CLI gives up, saying
 * how to come back.
 */
const PATIENCE_MS = 60_000;

export interface WatchRequest {
  jobId: string;
  outDir: string;
  names?: JobManifest['rows'];
  keepExisting: boolean;
  /** Outcomes decided before the job (rows skipped or failed by the CLI), for the summary. */
  settled: RowOutcome[];
  /** For the summary file: what was rendered and from which input. */
  report: Record<string, unknown>;
  summary?: string;
  label: string;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal?.addEventListener('abort', finish, { once: true });
  });
}

/** A folder as a person would type it from here: relative when inside the working folder, else absolute. */
export function folderLabel(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? dir : relative;
}

const comeBack = (jobId: string, outDir: string) => {
  const dir = folderLabel(outDir);
  return `Come back for the rest with \`imprint jobs wait ${jobId} --out-dir ${dir}\` (see it: \`imprint jobs show ${jobId}\`; stop it: \`imprint jobs cancel ${jobId}\`).`;
};

export async function watchJob(api: JobsApi, request: WatchRequest): Promise<FollowResult> {
  const { jobId, outDir } = request;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  const now = () => performance.now();
  const started = now();
  const progress = startJobProgress(request.label, now);
  let result: FollowResult;
  try {
    result = await followJob(
      { jobId, outDir, names: request.names, keepExisting: request.keepExisting, downloadConcurrency: DOWNLOAD_CONCURRENCY, pollMs: POLL_MS, patienceMs: PATIENCE_MS },
      {
        getJob: api.get,
        stream: api.stream,
        download: api.download,
        write: writeFileAtomically,
        exists: (file) => fs.existsSync(file),
        now,
        sleep,
        onStatus: (job, counts) => progress.status(job, counts),
        onRow: (outcome, counts) => progress.row(outcome, counts),
        signal: stop.signal,
      },
    );
  } catch (error) {
    // The job is the service's: whatever stopped the waiting here, it may still be running.
    if (isImprintError(error) && error.code !== 'NOT_FOUND' && error.code !== 'UNAUTHORIZED') {
      throw new ImprintError(error.code, `${error.message} Job ${jobId} may still be running on the service. ${comeBack(jobId, outDir)}`, { cause: error, details: error.details });
    }
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.stop();
  }

  const rows = [...request.settled, ...result.rows].sort((a, b) => a.row - b.row);
  const count = (status: RowOutcome['status']) => rows.filter((row) => row.status === status).length;
  const total = request.settled.length + result.job.total;
  const summary: BatchSummary = { total, ok: count('ok'), failed: count('failed'), skipped: count('skipped'), outDir, durationMs: Math.round(now() - started), rows };
  if (request.summary) {
    const report = { ...request.report, job: jobLine(result.job), interrupted: result.interrupted, requests: api.requestCount(), ...summary };
    writeFileAtomically(path.resolve(request.summary), `${JSON.stringify(report, null, 2)}\n`);
  }
  // The folder's note on the job (job-manifest.ts) is for coming back: once every PDF the job
  // delivered is here, it goes, and the folder holds the PDFs alone, as after a local batch.
  if (!result.interrupted && result.downloadFailures === 0) fs.rmSync(manifestPath(outDir, jobId), { force: true });
  const outLabel = folderLabel(outDir);
  if (result.interrupted) {
    throw new ImprintError(
      'INTERRUPTED',
      `Stopped waiting: job ${jobId} keeps running on the service (${result.job.done + result.job.failed} of ${result.job.total} rows rendered when last seen; ${result.counts.downloaded} PDFs downloaded into ${outLabel}). ${comeBack(jobId, outDir)}`,
    );
  }
  done(`${summaryText(summary, outLabel)} (job ${jobId}, ${result.job.status})`);
  const failure = failedRowsError(summary, request.summary);
  if (failure) throw failure;
  return result;
}

/** The failure a batch with failed rows ends in (exit 1): which rows, and where the reasons are. */
export function failedRowsError(summary: BatchSummary, summaryFile: string | undefined): ImprintError | undefined {
  if (summary.failed === 0) return undefined;
  const failedRows = summary.rows.filter((row) => row.status === 'failed').map((row) => row.row);
  const listed = failedRows.length > 20 ? `${failedRows.slice(0, 20).join(', ')}, ...` : failedRows.join(', ');
  const see = summaryFile ? ` ${summaryFile} lists every row's outcome.` : " The reasons are above; --summary <file> records every row's outcome.";
  return new ImprintError('RENDER_FAILED', `${summary.failed} of ${summary.total} rows failed (row${failedRows.length > 1 ? 's' : ''} ${listed}).${see}`);
}

/** The job as the summary file records it: its status line, without rows. */
function jobLine(job: JobDetails) {
  const { rows: _rows, ...rest } = job;
  return rest;
}
