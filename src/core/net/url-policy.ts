/**
 * Judges a URL a caller asks to render (the `url` of a render request, or a navigation the
 * render layer sees). Two kinds of refusal are kept apart because the server answers them
 * differently: a URL that is not http(s) is the caller's mistake (400), a destination the
 * policy denies is forbidden (403) with a message that says nothing about what is there.
 *
 * The URL is read by the WHATWG parser, the same reading Chromium gives it, so
 * http://2130706433/, http://0x7f.1/, http://example.com@127.0.0.1/ and http://127.1/ are all
 * judged as the 127.0.0.1 that Chromium would connect to.
 */
import { type AllowedAddress, type DestinationCheck, type DestinationDenyReason } from './destination-check.js';

export type UrlDenyReason = 'invalid-url' | 'scheme' | DestinationDenyReason;

export type UrlDecision =
  | { allowed: true; url: URL; addresses: readonly AllowedAddress[] }
  | {
      allowed: false;
      /** 400 for a URL that is not http(s) or not a URL; 403 for a denied destination. */
      status: 400 | 403;
      reason: UrlDenyReason;
      /** Safe to send to the caller: never says whether anything answers at the destination. */
      message: string;
      /** For the operator's log only. */
      detail: string;
    };

export const DENIED_DESTINATION_MESSAGE =
  "The URL's destination is not allowed by this server's network policy. Only public http(s) addresses can be rendered unless the operator allow-lists the host.";

export const ALLOWED_URL_SCHEMES: readonly string[] = ['http:', 'https:'];

export type ParsedUrl = { ok: true; url: URL } | { ok: false; reason: 'invalid-url' | 'scheme'; message: string; detail: string };

/** The synchronous half: is this an http(s) URL at all? */
export function parseHttpUrl(input: string): ParsedUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'invalid-url', message: 'The url is not a valid absolute URL.', detail: `cannot parse ${JSON.stringify(input.slice(0, 200))}` };
  }
  if (!ALLOWED_URL_SCHEMES.includes(url.protocol)) {
    return {
      ok: false,
      reason: 'scheme',
      message: `Only http and https URLs can be rendered (got ${JSON.stringify(url.protocol)}).`,
      detail: `scheme ${url.protocol}`,
    };
  }
  return { ok: true, url };
}

export async function checkUrl(input: string, check: DestinationCheck): Promise<UrlDecision> {
  const parsed = parseHttpUrl(input);
  if (!parsed.ok) return { allowed: false, status: 400, reason: parsed.reason, message: parsed.message, detail: parsed.detail };
  const destination = await check(parsed.url.hostname);
  if (!destination.allowed) {
    return { allowed: false, status: 403, reason: destination.reason, message: DENIED_DESTINATION_MESSAGE, detail: destination.detail };
  }
  return { allowed: true, url: parsed.url, addresses: destination.addresses };
}
