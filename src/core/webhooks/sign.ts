/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`, its HMAC-SHA256 keyed with the secret's bytes is
 * sent base64-encoded as `v1,<signature>`. The body signed is the exact string sent.
 */
import { createHmac } from 'node:crypto';
import { webhookSigningKey } from './secret.js';

export interface SignedWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const signature = createHmac('sha256', webhookSigningKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${signature}`;
}

/** The three Standard Webhooks headers of one attempt; the timestamp is the attempt's own, in whole seconds. */
export function webhookHeaders(secret: string, messageId: string, at: Date, body: string): SignedWebhookHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, messageId, timestamp, body),
  };
}
