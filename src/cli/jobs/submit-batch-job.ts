/**
 * A batch in remote mode: the rows go to the service as ONE job (api.md Part D), not one
 * request each. Rows whose file is already there (--skip-existing) and rows the CLI can tell
 * are bad are left out before sending; the file names are the CLI's own (job-plan.ts) and are
 * noted in the output folder (job-manifest.ts), so `imprint jobs wait` later writes the same
 * names. Then it waits on the job (watch-job.ts), or with --detach prints the job's id and
 * returns.
 */
import path from 'node:path';
import fs from 'node:fs';
import type { JobRequest } from '../../client/job-types.js';
import type { BatchRow } from '../batch/read-rows.js';
import { summaryText } from '../batch/progress-text.js';
import type { BatchSummary } from '../batch/run-batch.js';
import { DEFAULT_NAME_PATTERN } from '../batch/name-pattern.js';
import { writeFileAtomically } from '../io/write-output.js';
import { done, note, warn } from '../ui/status.js';
import { writeManifest } from './job-manifest.js';
import { planJob } from './job-plan.js';
import type { JobsApi } from './jobs-api.js';
import { failedRowsError, folderLabel, watchJob } from './watch-job.js';

/** What a batch's command line said that the job takes as it is (render-batch.ts BatchRun). */
export interface JobBatchFlags {
  /** The rows file as given ("-" for stdin). */
  batch: string;
  name?: string;
  skipExisting: boolean;
  summary?: string;
  detach: boolean;
}

export interface JobBatch {
  /** A template id, or "generate". */
  source: string;
  /** "Rendering invoice". */
  label: string;
  flags: JobBatchFlags;
  rows: BatchRow[];
  outDir: string;
  /** The job's body for the rows to send. */
  body(rows: Record<string, unknown>[]): JobRequest;
}

export async function submitBatchJob(api: JobsApi, batch: JobBatch): Promise<void> {
  const { outDir } = batch;
  const plan = planJob(batch.rows, batch.flags.name ?? DEFAULT_NAME_PATTERN, batch.flags.skipExisting, (name) => fs.existsSync(path.join(outDir, name)));
  const report = { source: batch.source, input: batch.flags.batch === '-' ? 'stdin' : path.resolve(batch.flags.batch) };
  if (plan.submitted.length === 0) {
    // Nothing left for the service: every row is already there or cannot be sent.
    const rows = plan.settled;
    const summary: BatchSummary = {
      total: rows.length,
      ok: 0,
      failed: rows.filter((row) => row.status === 'failed').length,
      skipped: rows.filter((row) => row.status === 'skipped').length,
      outDir,
      durationMs: 0,
      rows,
    };
    if (batch.flags.summary) writeFileAtomically(path.resolve(batch.flags.summary), `${JSON.stringify({ ...report, job: null, requests: api.requestCount(), ...summary }, null, 2)}\n`);
    if (batch.flags.detach) note('No job submitted: no row is left to render.');
    done(`${summaryText(summary, folderLabel(outDir))}; no job submitted`);
    reportFailed(rows);
    const failure = failedRowsError(summary, batch.flags.summary);
    if (failure) throw failure;
    return;
  }

  reportFailed(plan.settled);
  const submitted = await api.submit(batch.body(plan.submitted.map((row) => row.props)));
  writeManifest(outDir, { job: submitted.id, source: batch.source, rows: plan.submitted.map(({ row, name }) => ({ row, name })) });
  const dir = folderLabel(outDir);
  const left = plan.settled.length ? ` (${plan.settled.length} of ${batch.rows.length} rows left out here: ${describeSettled(plan.settled)})` : '';
  if (batch.flags.detach) {
    // stdout holds the id alone, for `id=$(imprint render ... --detach)`.
    process.stdout.write(`${submitted.id}\n`);
    done(`Submitted job ${submitted.id}: ${submitted.total} rows${left}. Download them with \`imprint jobs wait ${submitted.id} --out-dir ${dir}\`.`);
    return;
  }
  note(`Submitted job ${submitted.id}: ${submitted.total} rows${left}. Ctrl-C stops waiting; the job keeps running on the service.`);
  await watchJob(api, {
    jobId: submitted.id,
    outDir,
    names: plan.submitted.map(({ row, name }) => ({ row, name })),
    keepExisting: false,
    settled: plan.settled,
    report,
    summary: batch.flags.summary,
    label: batch.label,
  });
}

function reportFailed(rows: BatchSummary['rows']) {
  for (const row of rows) if (row.status === 'failed') warn(`row ${row.row}: ${row.error}`);
}

function describeSettled(rows: { status: string }[]): string {
  const skipped = rows.filter((row) => row.status === 'skipped').length;
  const failed = rows.length - skipped;
  return [skipped && `${skipped} already there`, failed && `${failed} failed`].filter(Boolean).join(', ');
}
