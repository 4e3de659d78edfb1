/**
 * The body of a job's webhook (api.md Part D): `{ type, timestamp, data }`, where data is the
 * job as `GET /api/jobs/{id}` shows it without its rows (a job of 10,000 rows would make a
 * body no receiver wants; the receiver fetches the rows or the archive when it needs them).
 */

export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEvent<Data> {
  type: WebhookEventType;
  /** When the event happened (the job finished), ISO 8601 UTC; the same on every retry. */
  timestamp: string;
  data: Data;
}

/** The event a job's final status sends; undefined for a status that is not final (queued, running). */
export function webhookEventTypeFor(status: string): WebhookEventType | undefined {
  const type = `job.${status}`;
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type) ? (type as WebhookEventType) : undefined;
}

/** The event for a job: the job's own fields, its rows left out. Pure: the same inputs give the same body on every retry. */
export function buildWebhookEvent<Job extends object>(type: WebhookEventType, job: Job, at: Date): WebhookEvent<Omit<Job, 'rows'>> {
  const { rows: _rows, ...data } = job as Job & { rows?: unknown };
  return { type, timestamp: at.toISOString(), data };
}

/**
 * A webhook-id for one event of one job: stable across that event's retries (receivers use it
 * to drop duplicates), different between jobs and between events.
 */
export function webhookMessageId(jobId: string, type: WebhookEventType): string {
  return `msg_${jobId}_${type.slice('job.'.length)}`;
}
