/**
 * Job webhooks as this service sends them: the target judged at submit by the same outbound
 * policy as an A2 `url` (and the team must have a signing secret), each attempt signed with
 * the team's secret and delivered by core/webhooks, the next one scheduled by its backoff.
 * The event's data is the job as GET /api/jobs/{id} showed it when it finished, without rows
 * and without the delivery attempts, built in core (core/jobs/job-webhook-event.ts); its body
 * is made once (the store freezes it) and every retry sends the same bytes with the same
 * webhook-id, only the signature's timestamp is new.
 */
import type { JobRecord } from '../../core/jobs/job-types.js';
import type { WebhookSender } from '../../core/jobs/jobs.js';
import type { NetPolicy } from '../../core/net/address-policy.js';
import type { Resolver } from '../../core/net/resolver.js';
import type { Store } from '../../core/store/index.js';
import { hasWebhookRetryLeft, webhookRetryDelayMs } from '../../core/webhooks/backoff.js';
import { deliverWebhook } from '../../core/webhooks/deliver.js';
import { webhookEventTypeFor, webhookMessageId } from '../../core/webhooks/event.js';
import { requireWebhookSecret } from '../../core/webhooks/team-secret.js';
import { checkWebhookUrl } from '../../core/webhooks/webhook-url.js';

export interface JobWebhookOptions {
  store: Store;
  netPolicy: NetPolicy;
  resolve?: Resolver;
  retryBaseMs: number;
  timeoutMs: number;
}

export function jobWebhooks(options: JobWebhookOptions): WebhookSender {
  return {
    async checkTarget(teamId, url) {
      const checked = await checkWebhookUrl(url, options.netPolicy, options.resolve);
      await requireWebhookSecret(options.store, teamId);
      return checked;
    },

    async send(job: JobRecord, body: string) {
      const type = webhookEventTypeFor(job.status);
      const secret = await options.store.getWebhookSecret(job.teamId);
      const at = new Date().toISOString();
      if (!type || !job.webhook) return { at, ok: false, error: `the job is ${job.status}, not finished` };
      if (!secret) return { at, ok: false, error: "the team's webhook signing secret was removed" };
      return deliverWebhook({
        url: job.webhook.url,
        secret,
        body,
        messageId: webhookMessageId(job.id, type),
        netPolicy: options.netPolicy,
        resolve: options.resolve,
        timeoutMs: options.timeoutMs,
      });
    },

    retryDelayMs: (attempt) => (hasWebhookRetryLeft(attempt) ? webhookRetryDelayMs(attempt, { baseMs: options.retryBaseMs }) : undefined),
  };
}
