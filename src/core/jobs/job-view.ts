/**
 * A job as the service shows it: GET /api/jobs lists it so, GET /api/jobs/{id} adds its rows,
 * its stream sends it, and its webhook event carries it (without rows). One function, so the
 * four never differ. Its URLs come through a port (JobUrls): the core says which URLs a job
 * has, the face that serves them (server/urls.ts) says where they are.
 */
import type { JobRecord, RowRecord } from './job-types.js';

/** Where a job's URLs point: implemented by the face that answers them (server/urls.ts serviceUrls). */
export interface JobUrls {
  /** GET it for the job's status (the `statusUrl`, the 202's Location). */
  jobStatus(jobId: string): string;
  /** GET it for a zip of the job's finished PDFs. */
  jobArchive(jobId: string): string;
  /** Where an issued PDF downloads (a row's `url`). */
  download(token: string): string;
}

/** A job as GET /api/jobs lists it: no rows, no URLs. */
export function jobSummary(job: JobRecord) {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    cancelled: job.cancelled,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    ...(job.spec.kind === 'document' ? { template: job.spec.templateId, version: job.spec.version } : {}),
    ...(job.spec.name ? { name: job.spec.name } : {}),
    ...(job.spec.test ? { test: true } : {}),
    // Names and sizes of the parts merged into every row; their bytes are never shown.
    ...(job.spec.parts ? { parts: job.spec.parts } : {}),
    ...(job.webhook ? { webhook: { url: job.webhook.url, attempts: job.webhook.attempts } } : {}),
  };
}

export function jobView(job: JobRecord, urls: JobUrls) {
  return { ...jobSummary(job), statusUrl: urls.jobStatus(job.id), archiveUrl: urls.jobArchive(job.id) };
}

/** A finished row: its name and download URL, or why it failed. */
export const rowView = (row: RowRecord, urls: JobUrls) =>
  row.state === 'done' ? { row: row.row, name: row.name, url: urls.download(row.token!), expiresAt: row.expiresAt } : { row: row.row, error: row.error, code: row.code };
