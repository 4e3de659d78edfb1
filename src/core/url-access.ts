/**
 * Which page a render may open as its `url` (A2's `url`, the CLI's `generate --url`): one rule
 * for both faces, judged before any browser work, so a refused URL costs no page, no slot in
 * the queue and no generation.
 *
 * - http(s): the destination is judged by the network policy (src/core/net): a service's
 *   policy is the operator's (public addresses only by default), the CLI's is public only
 *   unless the user passes --allow-local.
 * - file: the user's own files, on the user's own machine, only with --allow-local; a service
 *   never opens its own files for a caller.
 * - anything else: never.
 *
 * The two faces differ only in what a refusal says. A service's caller learns nothing about
 * the destination (one fixed message, whatever the reason: a closed port and a denied one look
 * alike); the reason goes to `details`, which the server logs and never sends. A local user is
 * the operator of their own machine and is told why, and which flag opens it.
 *
 * This is the friendly, early answer; the browser launch enforces the same policy on every
 * request the page makes (the egress proxy), which is what actually keeps a page in bounds.
 */
import { ALLOW_LOCAL_FLAG } from './allow-local-flag.js';
import { ImprintError } from './errors.js';
import { createNetPolicy, PRIVATE_CLASSES, type NetPolicy } from './net/address-policy.js';
import { createDestinationCheck } from './net/destination-check.js';
import type { Resolver } from './net/resolver.js';
import { checkUrl, DENIED_DESTINATION_MESSAGE, type UrlDenyReason } from './net/url-policy.js';

export interface UrlAccess {
  /** Who asked: a service's caller (told nothing about the destination) or the local user. */
  audience: 'service' | 'local';
  policy: NetPolicy;
  /** file: URLs may be rendered (the CLI's --allow-local). */
  allowFiles: boolean;
  /** Name resolution; the system resolver by default (tests hand in a table). */
  resolve?: Resolver;
}

/** The service: the operator's policy, and never a file of the server. */
export function serviceUrlAccess(policy: NetPolicy, resolve?: Resolver): UrlAccess {
  return { audience: 'service', policy, allowFiles: false, resolve };
}

/** The CLI's embedded mode: public only, like the service, unless the user passes --allow-local. */
export function localUrlAccess(allowLocal: boolean, resolve?: Resolver): UrlAccess {
  return { audience: 'local', policy: createNetPolicy({ allowPrivate: allowLocal }), allowFiles: allowLocal, resolve };
}

export { ALLOW_LOCAL_FLAG };

/** Reasons that --allow-local (allowPrivate) would lift; metadata and the like stay closed. */
const LIFTED_BY_ALLOW_LOCAL: ReadonlySet<string> = new Set<string>([...PRIVATE_CLASSES, 'localhost-name']);

const quoted = (input: string) => JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}...` : input);

function fieldName(access: UrlAccess) {
  return access.audience === 'local' ? '--url' : 'url';
}

/** A bad URL is the caller's mistake: a usage error for the CLI (exit 2), 400 for the service. */
function invalid(access: UrlAccess, input: string, why: string): ImprintError {
  return new ImprintError(access.audience === 'local' ? 'USAGE' : 'INVALID_INPUT', `Invalid ${fieldName(access)} ${quoted(input)}: ${why}`);
}

function schemeRule(access: UrlAccess): string {
  return access.audience === 'local'
    ? `give an absolute http or https address such as https://example.org/page (or a file: URL, with ${ALLOW_LOCAL_FLAG}).`
    : 'give an absolute http or https address, e.g. https://example.org/page.';
}

function checkFileUrl(url: URL, input: string, access: UrlAccess): string {
  // A service's caller is told what any non-http(s) scheme gets: only http(s) here.
  if (access.audience === 'service') throw invalid(access, input, `only http and https addresses can be rendered (got "file:"). ${schemeRule(access)}`);
  if (url.host !== '') throw invalid(access, input, 'a file: URL names a path on this machine: file:///path/to/page.html.');
  if (!access.allowFiles) {
    throw new ImprintError('URL_DENIED', `Refusing to render ${url.href}: local files are rendered only when you pass ${ALLOW_LOCAL_FLAG}.`);
  }
  return url.href;
}

function localRefusal(href: string, reason: UrlDenyReason, detail: string, policy: NetPolicy): ImprintError {
  if (reason === 'unresolvable') return new ImprintError('URL_DENIED', `Cannot render ${href}: ${detail}.`);
  const how =
    LIFTED_BY_ALLOW_LOCAL.has(reason) && !policy.allowPrivate
      ? `Only public addresses are rendered by default; pass ${ALLOW_LOCAL_FLAG} to render pages on this machine or your private network.`
      : 'Imprint never renders this address.';
  return new ImprintError('URL_DENIED', `Refusing to render ${href}: ${detail}. ${how}`);
}

/**
 * Checks `input` and answers the URL to open (normalised by the WHATWG parser, the reading
 * Chromium gives it). Throws ImprintError: USAGE/INVALID_INPUT (400) for a URL that is not one
 * or has a scheme that is never rendered, URL_DENIED (403) for a destination or file refused.
 */
export async function checkRenderUrl(input: string, access: UrlAccess): Promise<string> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid(access, input, schemeRule(access));
  }
  if (url.protocol === 'file:') return checkFileUrl(url, input, access);

  const decision = await checkUrl(url.href, createDestinationCheck(access.policy, access.resolve));
  if (decision.allowed) return decision.url.href;
  if (decision.status === 400) throw invalid(access, input, `only http and https addresses can be rendered (got ${JSON.stringify(url.protocol)}). ${schemeRule(access)}`);
  if (access.audience === 'local') throw localRefusal(url.href, decision.reason, decision.detail, access.policy);
  // The service's answer is the same for every reason; `details` is for the operator's log.
  throw new ImprintError('URL_DENIED', DENIED_DESTINATION_MESSAGE, { details: `${decision.reason}: ${decision.detail}` });
}
