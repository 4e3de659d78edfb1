/**
 * The signature step every face calls: a PDF, a signing key, and optionally a time-stamp
 * authority's URL (B-T); Imprint's software name goes into the signature with the template
 * and version that made the document, when known.
 */
import { ImprintError } from '../../errors.js';
import { imprintSoftwareName } from '../../version.js';
import { signPdf } from './sign-pdf.js';
import type { SigningKey } from './signing-key.js';
import { requestTimeStamp } from './timestamp.js';

export interface SignOptions {
  /** An RFC 3161 time-stamp authority (http or https URL): a B-T signature instead of B-B. */
  tsa?: string;
}

export interface MadeBy {
  template?: string;
  version?: number;
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

export function signDocument(pdf: Buffer, key: SigningKey, options: SignOptions, madeBy: MadeBy = {}, fetchImpl?: typeof fetch): Promise<Buffer> {
  const tsa = options.tsa;
  return signPdf(pdf, {
    key,
    timeStamp: tsa === undefined ? undefined : (signatureValue) => requestTimeStamp(tsa, signatureValue, fetchImpl),
    madeBy: { software: imprintSoftwareName(), ...madeBy },
  });
}
