/**
 * A job as the service shows it: GET /api/jobs lists it so, GET /api/jobs/{id} adds its rows,
 * and a webhook event carries it (without rows). One function, so the three never differ.
 */
import type { JobRecord, RowRecord } from '../../core/jobs/job-types.js';
import { jobSummary } from '../../core/jobs/jobs.js';
import { downloadUrl } from '../server-engine.js';

export const JOBS_PATH = '/api/jobs';

const under = (base: string, relative: string) => new URL(relative, base.endsWith('/') ? base : `${base}/`).href;

export const jobStatusUrl = (base: string, id: string) => under(base, `${JOBS_PATH.slice(1)}/${id}`);

export function jobView(base: string, job: JobRecord) {
  const statusUrl = jobStatusUrl(base, job.id);
  return { ...jobSummary(job), statusUrl, archiveUrl: `${statusUrl}/archive` };
}

/** A finished row: its name and download URL, or why it failed. */
export const rowView = (base: string, row: RowRecord) =>
  row.state === 'done' ? { row: row.row, name: row.name, url: downloadUrl(base, row.token!), expiresAt: row.expiresAt } : { row: row.row, error: row.error, code: row.code };
