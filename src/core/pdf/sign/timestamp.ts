/**
 * RFC 3161 time-stamps: a request for the SHA-256 of a signature value, sent to a time-stamp
 * authority over HTTP (POST application/timestamp-query), and its answer checked before it goes
 * into the signature: granted, over the same hash, with the same nonce, and signed by the
 * authority (cms-read.ts). The token is what a B-T signature carries as its
 * signature-time-stamp attribute; its TSTInfo's genTime is the signature's proven time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ImprintError } from '../../errors.js';
import { checkSignedData } from './cms-read.js';
import { algorithm, boolean, children, octetString, readElement, readTime, sequence, smallInteger, TAG, unsignedInteger, type Element } from './der.js';
import { OID } from './oids.js';

/** A TSA answers in well under a second; a stalled one must not hold a render for ever. */
const TSA_TIMEOUT_MS = 20_000;
/** A token is a few kilobytes; an answer far larger is not one. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface TstInfo {
  /** The time the authority vouches for. */
  time: Date;
  /** The hashed message (the signature value's hash) and its algorithm's OID. */
  imprint: { algorithm: string; hash: Buffer };
  nonce: Buffer | undefined;
}

export function readTstInfo(der: Buffer): TstInfo {
  const fields = children(readElement(der));
  const [algorithmId, hash] = children(fields[2]!);
  const nonce = fields.slice(5).find((item: Element) => item.tag === TAG.INTEGER);
  return {
    time: readTime(fields[4]!),
    imprint: { algorithm: children(algorithmId!)[0]!.content.toString('hex'), hash: Buffer.from(hash!.content) },
    nonce: nonce ? Buffer.from(nonce.content) : undefined,
  };
}

const failure = (tsa: string, why: string, cause?: unknown) =>
  new ImprintError('TIMESTAMP_FAILED', `The time-stamp authority ${tsa} ${why}. Check --tsa (an RFC 3161 URL such as http://timestamp.digicert.com), or sign without it (B-B).`, { cause });

/** A time-stamp token (DER ContentInfo) for `message` from the authority at `tsa`. */
export async function requestTimeStamp(tsa: string, message: Buffer, fetchImpl: typeof fetch = fetch): Promise<Buffer> {
  const hash = createHash('sha256').update(message).digest();
  const nonce = randomBytes(8);
  nonce[0]! &= 0x7f;
  const request = sequence(smallInteger(1), sequence(algorithm(OID.sha256), octetString(hash)), unsignedInteger(nonce), boolean(true));
  let response: Response;
  try {
    response = await fetchImpl(tsa, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: new Uint8Array(request),
      signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
    });
  } catch (error) {
    throw failure(tsa, `could not be reached (${error instanceof Error ? error.message : String(error)})`, error);
  }
  if (!response.ok) throw failure(tsa, `answered HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > MAX_RESPONSE_BYTES) throw failure(tsa, `answered ${body.length} bytes, not a time-stamp`);
  let token: Buffer;
  try {
    const [status, tokenElement] = children(readElement(body));
    const granted = children(status!)[0]!.content.readUIntBE(0, 1);
    if (granted > 1) throw failure(tsa, `refused the request (PKIStatus ${granted})`);
    if (!tokenElement) throw failure(tsa, 'granted no token');
    token = Buffer.from(tokenElement.bytes);
  } catch (error) {
    if (error instanceof ImprintError) throw error;
    throw failure(tsa, 'answered something that is not an RFC 3161 response', error);
  }
  const check = checkSignedData(token);
  const info = check.content ? readTstInfo(check.content) : undefined;
  if (!info || !info.imprint.hash.equals(hash)) throw failure(tsa, 'answered a token for another message');
  if (!info.nonce || !info.nonce.equals(readElement(unsignedInteger(nonce)).content)) throw failure(tsa, "answered a token without this request's nonce");
  if (!check.digestMatches || !check.signatureValid) throw failure(tsa, 'answered a token whose signature does not verify');
  return token;
}
