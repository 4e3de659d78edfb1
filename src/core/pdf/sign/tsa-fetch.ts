/**
 * The service's way to a time-stamp authority: a request's `sign.tsa` URL is the caller's
 * choice, so it is held to the operator's outbound policy like a page URL or a webhook (no
 * private or metadata address unless allowed), checked once and connected to the addresses
 * that check approved (webhooks/pinned-agent.ts), never to a fresh lookup.
 */
import { fetch as undiciFetch } from 'undici';
import { ImprintError } from '../../errors.js';
import type { NetPolicy } from '../../net/address-policy.js';
import { createDestinationCheck } from '../../net/destination-check.js';
import type { Resolver } from '../../net/resolver.js';
import { checkUrl } from '../../net/url-policy.js';
import { pinnedAgent } from '../../webhooks/pinned-agent.js';

const CONNECT_TIMEOUT_MS = 10_000;

export function policedTsaFetch(netPolicy: NetPolicy, resolve?: Resolver): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    const decision = await checkUrl(url, createDestinationCheck(netPolicy, resolve));
    if (!decision.allowed) {
      throw new ImprintError(decision.status === 400 ? 'INVALID_INPUT' : 'URL_DENIED', `sign.tsa ${url}: ${decision.message}`);
    }
    const agent = pinnedAgent({ url: decision.url, addresses: decision.addresses, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    try {
      const answer = await undiciFetch(decision.url, { method: init?.method, headers: init?.headers as Record<string, string>, body: init?.body as Buffer, signal: init?.signal, dispatcher: agent, redirect: 'manual' });
      // Read whole while the agent lives: the answer is a few kilobytes (timestamp.ts bounds it).
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { 'content-type': answer.headers.get('content-type') ?? '' } });
    } finally {
      await agent.destroy();
    }
  };
}
