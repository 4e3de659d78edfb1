/**
 * Job webhooks (api.md Part D, docs/webhooks.md): what the job runner calls. It owns when an
 * attempt is made (queueing, the schedule from backoff.ts, recording each outcome); this
 * module owns one attempt, its signature, the event body, the secret and the URL check.
 */
export { DEFAULT_WEBHOOK_RETRY_BASE_MS, hasWebhookRetryLeft, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs, type WebhookBackoffOptions } from './backoff.js';
export { deliverWebhook, WEBHOOK_DESTINATION_DENIED, type DeliverWebhookOptions, type WebhookAttempt } from './deliver.js';
export { buildWebhookEvent, WEBHOOK_EVENT_TYPES, webhookEventTypeFor, webhookMessageId, type WebhookEvent, type WebhookEventType } from './event.js';
export { generateWebhookSecret, WEBHOOK_SECRET_PATTERN } from './secret.js';
export { signWebhook, webhookHeaders, type SignedWebhookHeaders } from './sign.js';
export { checkWebhookUrl, WEBHOOK_URL_DENIED_MESSAGE } from './webhook-url.js';
export { NO_WEBHOOK_SECRET_MESSAGE, requireWebhookSecret } from './team-secret.js';
