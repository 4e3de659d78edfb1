/**
 * The body of a finished job's webhook event (api.md Part D): `{ type, timestamp, data }`, data
 * the job as GET /api/jobs/{id} shows it (job-view.ts) without rows and without the delivery
 * attempts (they change with every retry; the job's status shows them). Made once: the store
 * freezes it and every retry sends the same bytes.
 */
import { buildWebhookEvent, webhookEventTypeFor } from '../webhooks/event.js';
import type { JobRecord } from './job-types.js';
import { jobView, type JobUrls } from './job-view.js';

export function jobWebhookEventBody(job: JobRecord, urls: JobUrls): string {
  const type = webhookEventTypeFor(job.status);
  if (!type) throw new Error(`Job ${job.id} is ${job.status}: only a finished job has an event.`);
  const { webhook, ...shown } = jobView(job, urls);
  const data = webhook ? { ...shown, webhook: { url: webhook.url } } : shown;
  return JSON.stringify(buildWebhookEvent(type, data, new Date(job.finishedAt ?? Date.now())));
}
