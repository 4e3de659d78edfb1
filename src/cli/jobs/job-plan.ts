/**
 * Which rows of a batch go into a job, decided before anything is sent. Pure: the caller
 * hands in whether a file exists.
 *
 * The CLI names the files itself, by the same rule as a local batch (name-pattern.ts), and
 * keeps the names it gave: rows left out (already there with --skip-existing, a bad line, a
 * name two rows share) keep their row numbers and names, so a `{{$row}}` name means the input's
 * row whether or not earlier rows were sent. A job's rows are numbered by their place in the
 * job; `submitted[i]` is the input row that job row i+1 came from (job-manifest.ts keeps it
 * beside the PDFs for `imprint jobs wait`).
 */
import type { BatchRow } from '../batch/read-rows.js';
import { assignNames, type RowOutcome } from '../batch/run-batch.js';

export interface SubmittedRow {
  /** The input's row number (1-based). */
  row: number;
  /** The file the row's PDF is written to, relative to the output folder. */
  name: string;
  props: Record<string, unknown>;
}

export interface JobPlan {
  /** In job order. */
  submitted: SubmittedRow[];
  /** Rows decided without the service: skipped (their file is there) or failed (no props, no name). */
  settled: RowOutcome[];
}

export function planJob(rows: BatchRow[], namePattern: string, skipExisting: boolean, exists: (name: string) => boolean): JobPlan {
  const names = assignNames({ rows, namePattern });
  const submitted: SubmittedRow[] = [];
  const settled: RowOutcome[] = [];
  for (const row of rows) {
    const { name, problem } = names.get(row.row)!;
    if (problem !== undefined || name === undefined || row.props === undefined) {
      settled.push({ row: row.row, status: 'failed', attempts: 0, error: problem ?? 'the row has no props' });
    } else if (skipExisting && exists(name)) {
      settled.push({ row: row.row, status: 'skipped', file: name, attempts: 0 });
    } else {
      submitted.push({ row: row.row, name, props: row.props });
    }
  }
  return { submitted, settled };
}
