/**
 * The `sign` option as every face gives it (request field, job field, library option, CLI
 * flags), checked before anything renders. Light on purpose: render-request.ts imports it, and
 * the signing code (and pdf-lib) loads only when a document is signed.
 */
import { ImprintError } from '../../errors.js';

export interface SignOptions {
  /** An RFC 3161 time-stamp authority (http or https URL): a B-T signature instead of B-B. */
  tsa?: string;
}

/** A TSA URL as given (flag or request field), checked before any rendering starts. */
export function parseTsaUrl(value: unknown, field = 'tsa'): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined; // reported just below, with the value given
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ImprintError('USAGE', `Invalid ${field} ${JSON.stringify(value)}: give the http(s) URL of an RFC 3161 time-stamp authority, e.g. http://timestamp.digicert.com.`);
  }
  return url.href;
}

/**
 * A request's `sign` field (API, jobs, library): true signs with the team's key (B-B);
 * `{ "tsa": "<url>" }` adds a time-stamp (B-T); false or absent signs nothing.
 */
export function parseSignOption(value: unknown): SignOptions | undefined {
  if (value === false) return undefined;
  if (value === true) return {};
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const unknown = Object.keys(value).filter((key) => key !== 'tsa');
    if (unknown.length > 0) throw new ImprintError('USAGE', `Invalid sign: unknown field ${JSON.stringify(unknown[0])}; sign is true or { "tsa": "<RFC 3161 URL>" }.`);
    const tsa = (value as { tsa?: unknown }).tsa;
    return tsa === undefined ? {} : { tsa: parseTsaUrl(tsa, 'sign.tsa') };
  }
  throw new ImprintError('USAGE', `Invalid sign ${JSON.stringify(value)}: use true (the team's signing key, PAdES B-B) or { "tsa": "<RFC 3161 URL>" } (B-T).`);
}
