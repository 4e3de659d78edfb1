/** The request and response shapes of jobs (api.md Part D), as the client sends and reads them. */
import type { OutputFields } from './types.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** The statuses after which nothing about the job changes any more. */
export const FINISHED_JOB_STATUSES: ReadonlySet<string> = new Set<JobStatus>(['completed', 'failed', 'cancelled']);

/** An A2 row: HTML, a page, or HTML injected into a page (api.md A2). */
export interface GenerateRow {
  html?: string;
  url?: string;
}

interface JobFields extends Omit<OutputFields, 'format'> {
  /** A file-name pattern such as `{{invoiceNo}}.pdf`, for the rows' names and the archive. */
  name?: string;
  webhook?: { url: string };
}

/** A1 with `rows` in place of `props`: one document of the template per row. */
export interface TemplateJobRequest extends JobFields {
  /** The template's id or UUID (the path segment of A1). */
  template: string;
  rows: Record<string, unknown>[];
  /** api.md Part E: every row rendered with this version. */
  version?: number;
}

/** A2 with `rows`: each row `{ html?, url? }`. */
export interface GenerateJobRequest extends JobFields {
  rows: GenerateRow[];
}

export type JobRequest = TemplateJobRequest | GenerateJobRequest;

/** The 202 answer of a submit. */
export interface SubmittedJob {
  id: string;
  status: JobStatus;
  total: number;
  statusUrl: string;
}

/** One row's outcome: delivered (its download URL) or failed (why). */
export type JobRowOutcome = { row: number; name?: string; url: string } | { row: number; error: string; code?: string };

/** One job in GET /api/jobs. Members beyond these (times, the template, webhook attempts) are shown as they come. */
export interface JobSummary {
  id: string;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  [member: string]: unknown;
}

/** GET /api/jobs/{id}: the summary and each row's outcome. */
export interface JobDetails extends JobSummary {
  /** The rows that have an outcome so far (a running job lists only those). */
  rows?: JobRowOutcome[];
}

export interface JobPage {
  jobs: JobSummary[];
  /** Present when older jobs follow: pass it as `before` for the next page. */
  next?: string;
}

export const isDeliveredRow = (row: JobRowOutcome): row is Extract<JobRowOutcome, { url: string }> => typeof (row as { url?: unknown }).url === 'string';

/**
 * One line of GET /api/jobs/{id}/stream (docs/jobs.md, Streaming): the job (first, on changes,
 * last), or a finished row; a delivered row carries its PDF, base64, decoded here to `pdf`.
 */
export type JobStreamEvent = { job: JobDetails } | { row: JobRowOutcome; pdf?: Buffer };
