/**
 * Object storage that cannot be reached (S3 down, refused, timing out): requests that need it
 * fail with STORAGE_UNAVAILABLE, answered 503 by the service, and work again by themselves
 * once the storage is back. The message names the bucket and the endpoint for the operator's
 * log; the service tells its clients less (src/server/http/errors.ts).
 */
import { ImprintError } from '../../errors.js';

/** What happens next while the service runs; at start it is not true (see storageUnavailableAtStart). */
const WHILE_RUNNING = 'requests that need it answer 503 until it is back';
const AT_START = 'imprint serve does not start without it: start it (or create the bucket), then start imprint serve again';

export function storageUnavailable(location: string, action: string, cause: unknown): ImprintError {
  return new ImprintError(
    'STORAGE_UNAVAILABLE',
    `The object storage (${location}) could not ${action}: ${reasonOf(cause)}. Check that it is running and reachable from this machine, and its credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY); ${WHILE_RUNNING}.`,
    { cause },
  );
}

/**
 * The same failure met by the start-up check: the process stops instead of answering 503, so
 * the message says that (an operator reading "answer 503 until it is back" right before the
 * process exits would wait for nothing).
 */
export function storageUnavailableAtStart(error: ImprintError): ImprintError {
  return new ImprintError('STORAGE_UNAVAILABLE', error.message.replace(WHILE_RUNNING, AT_START), { cause: error.cause });
}

/** Whether `error`, or an error in its chain of causes, is storage that cannot be reached. */
export function isStorageUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current !== null && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (current instanceof ImprintError && current.code === 'STORAGE_UNAVAILABLE') return true;
  }
  return false;
}

/** An SDK or socket error in one line: its name or code, its status, its message. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, $metadata } = error as { code?: unknown; $metadata?: { httpStatusCode?: number } };
  const parts = [typeof code === 'string' && code !== error.name ? code : error.name, $metadata?.httpStatusCode ? `HTTP ${$metadata.httpStatusCode}` : ''].filter(
    (part) => part && part !== 'Error',
  );
  const message = error.message.split('\n')[0] || 'no message';
  return parts.length ? `${parts.join(', ')}: ${message}` : message;
}
