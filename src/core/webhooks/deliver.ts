/**
 * One attempt to deliver a job's webhook: the event POSTed as JSON with the Standard Webhooks
 * headers, to a destination the operator's outbound policy allows (the same policy, and the
 * same check, as an A2 `url` render), connecting only to the addresses that check approved.
 *
 * Every way an attempt can fail (a refused destination, a network error, no answer within
 * timeoutMs, an answer that is not 2xx, a redirect: redirects are never followed, since the
 * next hop was not checked) is an outcome, never an exception: the caller records it and
 * decides on a retry (backoff.ts). The reason is short and says nothing about a refused
 * destination beyond the fact, as an A2 refusal does.
 */
import { request } from 'undici';
import type { NetPolicy } from '../net/address-policy.js';
import { createDestinationCheck } from '../net/destination-check.js';
import type { Resolver } from '../net/resolver.js';
import type { Dialer } from '../net/dial.js';
import { checkUrl } from '../net/url-policy.js';
import { pinnedAgent } from './pinned-agent.js';
import { webhookHeaders } from './sign.js';

export interface DeliverWebhookOptions {
  url: string;
  /** The team's signing secret, `whsec_...`. */
  secret: string;
  /** The event's body (event.ts, serialised when the event was made): the bytes sent are the bytes signed, the same on every attempt. */
  body: string;
  /** The webhook-id: the same on every attempt of one event, so receivers can drop duplicates. */
  messageId: string;
  /** The operator's outbound policy: the one A2 `url` renders are judged by. */
  netPolicy: NetPolicy;
  /** Name resolution for the destination check; the system's when absent. */
  resolve?: Resolver;
  /** The whole attempt (check, connect, answer) must end within this. */
  timeoutMs: number;
  /** The clock of the attempt's time and webhook-timestamp; a test seam. */
  now?: () => Date;
  /** Opens the TCP connection to an approved address; a test seam. */
  dialer?: Dialer;
}

export interface WebhookAttempt {
  /** When the attempt started, ISO 8601 UTC. */
  at: string;
  /** The receiver answered 2xx. */
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed, in a few words; absent when ok. */
  error?: string;
}

/** How much of a receiver's answer is read: its status is all that matters, the rest is drained up to this and dropped. */
export const WEBHOOK_RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

export const WEBHOOK_USER_AGENT = 'Imprint-Webhooks/1';

export const WEBHOOK_DESTINATION_DENIED =
  "the webhook URL's destination is not allowed by this server's network policy (only public addresses, unless the operator allows more)";

class AttemptTimeout extends Error {}

/** A failure's reason as a person reads it: the system error code where there is one. */
function shortReason(error: unknown): string {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code && !err.code.startsWith('UND_ERR_') ? err.code : err.cause?.code;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the receiver',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection timed out',
  };
  const text = (code && words[code]) ?? (err.message || String(error));
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

export async function deliverWebhook(options: DeliverWebhookOptions): Promise<WebhookAttempt> {
  const { url, secret, body, messageId, netPolicy, resolve, timeoutMs, now = () => new Date(), dialer } = options;
  const started = now();
  const at = started.toISOString();
  const failed = (error: string, status?: number): WebhookAttempt => ({ at, ok: false, ...(status === undefined ? {} : { status }), error });

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new AttemptTimeout()), timeoutMs);
  // The name lookup cannot be cancelled; the attempt stops waiting for it at the deadline.
  const expired = new Promise<never>((_, reject) => deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason), { once: true }));
  // Only raced against, never awaited alone: a deadline that passes after the attempt ended is not an error.
  expired.catch(() => undefined);
  let agent: ReturnType<typeof pinnedAgent> | undefined;
  try {
    const decision = await Promise.race([checkUrl(url, createDestinationCheck(netPolicy, resolve)), expired]);
    if (!decision.allowed) return failed(decision.status === 400 ? `the webhook URL is not an http(s) URL: ${decision.message}` : WEBHOOK_DESTINATION_DENIED);

    agent = pinnedAgent({ url: decision.url, addresses: decision.addresses, connectTimeoutMs: timeoutMs, dialer });
    const answer = await request(decision.url, {
      method: 'POST',
      dispatcher: agent,
      signal: deadline.signal,
      headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...webhookHeaders(secret, messageId, started, body) },
      body,
    });
    // The status is the outcome; the body is drained (up to the limit) only so the exchange
    // ends cleanly, and a receiver that sends more is cut off there (dump rejects then, which
    // says nothing about the outcome already decided).
    await answer.body.dump({ limit: WEBHOOK_RESPONSE_READ_LIMIT_BYTES, signal: deadline.signal }).catch(() => undefined);
    const status = answer.statusCode;
    if (status >= 200 && status < 300) return { at, ok: true, status };
    if (status >= 300 && status < 400) return failed(`the receiver answered ${status}, a redirect (redirects are not followed: answer 2xx at the webhook URL itself)`, status);
    return failed(`the receiver answered ${status}`, status);
  } catch (error) {
    if (deadline.signal.aborted) return failed(`no answer within ${timeoutMs} ms`);
    return failed(shortReason(error));
  } finally {
    clearTimeout(timer);
    // The agent served this one attempt; its outcome is decided, and a failure to tear down its socket changes nothing of it.
    await agent?.destroy().catch(() => undefined);
  }
}
