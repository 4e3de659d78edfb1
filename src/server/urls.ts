/**
 * Every URL the service answers with, built here once: where an issued PDF downloads (api.md
 * Part B, `GET /api/files/{token}`) and where a job's status and archive are (Part D). Each is
 * relative to the service's public base, so a base with a path prefix (https://host/imprint)
 * keeps it. The base is read when a URL is made: with port 0 it is known only once listening.
 * serviceUrls is the core's URL port (core/jobs/job-view.ts JobUrls) as this service answers it.
 */
import type { JobUrls } from '../core/jobs/job-view.js';

export const FILES_PATH = '/api/files/';
export const JOBS_PATH = '/api/jobs';

const under = (base: string, relative: string) => new URL(relative, base.endsWith('/') ? base : `${base}/`).href;

export const downloadUrl = (base: string, token: string) => under(base, FILES_PATH.slice(1) + token);

export const jobStatusUrl = (base: string, jobId: string) => under(base, `${JOBS_PATH.slice(1)}/${jobId}`);

export type ServiceUrls = JobUrls;

export function serviceUrls(base: () => string): ServiceUrls {
  return {
    download: (token) => downloadUrl(base(), token),
    jobStatus: (jobId) => jobStatusUrl(base(), jobId),
    jobArchive: (jobId) => `${jobStatusUrl(base(), jobId)}/archive`,
  };
}
