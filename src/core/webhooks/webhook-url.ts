/**
 * A job's `webhook.url`, judged when the job is submitted: the friendly, early answer (400 for
 * a URL that is not http(s), 403 for a destination the operator's policy refuses, the same
 * words as an A2 refusal), so a caller learns at once instead of from failed attempts. The
 * policy is enforced again at every delivery attempt (deliver.ts), since what a name resolves
 * to can change between submission and delivery.
 */
import { ImprintError } from '../errors.js';
import type { NetPolicy } from '../net/address-policy.js';
import { createDestinationCheck } from '../net/destination-check.js';
import type { Resolver } from '../net/resolver.js';
import { checkUrl } from '../net/url-policy.js';

export const WEBHOOK_URL_DENIED_MESSAGE =
  "The webhook URL's destination is not allowed by this server's network policy. Only public http(s) addresses receive webhooks unless the operator allow-lists the host.";

/** Answers the URL as the WHATWG parser normalises it; throws INVALID_INPUT (400) or URL_DENIED (403). */
export async function checkWebhookUrl(input: unknown, netPolicy: NetPolicy, resolve?: Resolver): Promise<string> {
  if (typeof input !== 'string') throw new ImprintError('INVALID_INPUT', 'Invalid webhook.url: expected a string, an absolute http or https address such as https://example.org/hooks/imprint.');
  const decision = await checkUrl(input, createDestinationCheck(netPolicy, resolve));
  if (decision.allowed) return decision.url.href;
  if (decision.status === 400) {
    throw new ImprintError('INVALID_INPUT', `Invalid webhook.url ${JSON.stringify(input.slice(0, 200))}: give an absolute http or https address such as https://example.org/hooks/imprint.`);
  }
  // Told nothing about the destination, as an A2 caller is; the reason is for the operator's log.
  throw new ImprintError('URL_DENIED', WEBHOOK_URL_DENIED_MESSAGE, { details: `${decision.reason}: ${decision.detail}` });
}
