/**
 * A part to merge fetched by URL, under the same rule as A2's `url` (url-access.ts): the
 * service's caller reaches what the operator's policy allows, the CLI's user public addresses
 * unless they pass --allow-local. The connection goes only to the addresses the check approved
 * (the webhooks' pinned agent: no second lookup to rebind), redirects are not followed (their
 * target was not checked), and the body is read up to a byte limit and a deadline.
 */
import { request } from 'undici';
import { ImprintError, isImprintError } from '../../errors.js';
import { formatBytes } from '../../limits/format-bytes.js';
import { MERGE_FETCH_TIMEOUT_MS } from '../../limits/merge-limits.js';
import { createDestinationCheck } from '../../net/destination-check.js';
import { checkUrl, DENIED_DESTINATION_MESSAGE } from '../../net/url-policy.js';
import { checkRenderUrl, type UrlAccess } from '../../url-access.js';
import { pinnedAgent } from '../../webhooks/pinned-agent.js';
import type { AllowedAddress } from '../../net/destination-check.js';

/**
 * Judges a part's URL (a refused one throws URL_DENIED then, before anything is printed) and
 * answers its download, which connects only to the addresses just approved. `label`: the part
 * as the request names it ("append[1]").
 */
export type PartFetcher = (url: string, label: string) => Promise<PartDownload>;

/** The approved part's bytes: at most `maxBytes`, given up when `signal` aborts (the print failed). */
export type PartDownload = (maxBytes: number, signal: AbortSignal) => Promise<Buffer>;

/** The part named in every failure, its code kept (URL_DENIED stays a 403). */
function aboutPart(error: unknown, label: string): unknown {
  if (!isImprintError(error)) return error;
  return new ImprintError(error.code, `${label}: ${error.message}`, { details: error.details, cause: error });
}

async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new ImprintError('DOCUMENT_TOO_LARGE', `${label} is larger than ${formatBytes(maxBytes)}, the most a part to merge may have here.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** `access`: read at each fetch (the CLI's --allow-local is known only once a command runs). */
export function createPartFetcher(access: () => UrlAccess): PartFetcher {
  return async (input, label) => {
    const rules = access();
    let checked: string;
    try {
      checked = await checkRenderUrl(input, rules);
    } catch (error) {
      throw aboutPart(error, label);
    }
    const decision = await checkUrl(checked, createDestinationCheck(rules.policy, rules.resolve));
    // Allowed a moment ago; a name that now resolves elsewhere is refused like any other.
    if (!decision.allowed) throw new ImprintError('URL_DENIED', `${label}: ${DENIED_DESTINATION_MESSAGE}`, { details: decision.detail });
    return (maxBytes, cancelled) => download(decision.url, decision.addresses, label, maxBytes, cancelled);
  };
}

/** One GET to the approved addresses: a 200 within the deadline and the byte limit, else an error naming the part. */
async function download(url: URL, addresses: readonly AllowedAddress[], label: string, maxBytes: number, cancelled: AbortSignal): Promise<Buffer> {
  const agent = pinnedAgent({ url, addresses, connectTimeoutMs: MERGE_FETCH_TIMEOUT_MS });
  const timeout = AbortSignal.timeout(MERGE_FETCH_TIMEOUT_MS);
  try {
    const answer = await request(url, { method: 'GET', dispatcher: agent, signal: AbortSignal.any([timeout, cancelled]), headers: { accept: 'application/pdf' } });
    if (answer.statusCode !== 200) {
      // Drained only so the exchange ends cleanly; the status already decided the outcome.
      await answer.body.dump().catch(() => undefined);
      const redirect = answer.statusCode >= 300 && answer.statusCode < 400 ? ' (redirects are not followed: give the final address)' : '';
      throw new ImprintError('INVALID_INPUT', `${label}: ${url.href} answered ${answer.statusCode}${redirect}, not the PDF.`);
    }
    const length = Number(answer.headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes) {
      await answer.body.dump().catch(() => undefined);
      throw new ImprintError('DOCUMENT_TOO_LARGE', `${label} is ${formatBytes(length)}, larger than ${formatBytes(maxBytes)}, the most a part to merge may have here.`);
    }
    return await readCapped(answer.body, maxBytes, label);
  } catch (error) {
    if (isImprintError(error)) throw error;
    if (timeout.aborted) throw new ImprintError('INVALID_INPUT', `${label}: ${url.href} did not send the PDF within ${MERGE_FETCH_TIMEOUT_MS / 1000} s.`, { cause: error });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ImprintError('INVALID_INPUT', `${label}: ${url.href} could not be fetched (${reason}).`, { cause: error });
  } finally {
    // The agent served this one fetch, whose outcome is decided; failing to tear down its socket changes nothing of it.
    await agent.destroy().catch(() => undefined);
  }
}
