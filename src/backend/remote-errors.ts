/**
 * The client's errors as a person at a terminal should read them: what the service said, and
 * what to do next (log in, list the ids, mind the limit, come back later). Each becomes an
 * ImprintError with the code the service answered (docs/api.md's catalogue), so the CLI's one
 * boundary (main.ts) prints it and sets the exit code as for any other failure, and a batch
 * tells the team's generation limit from one document too large; the client's error stays the
 * cause, with its HTTP status and Retry-After. The service's wording is shown, never read.
 */
import { ApiError, ApiUnreachableError, retryAfterText } from '../client/errors.js';
import { httpStatusOf, ImprintError, isWireErrorCode, type WireErrorCode } from '../core/errors.js';

/**
 * An answer without a code (a proxy's page, a service older than the codes) or with one this
 * version does not know, by its status. api.md's only 422 is the team's generation limit.
 */
const STATUS_CODES: Record<number, WireErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'URL_DENIED',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'LIMIT_EXCEEDED',
  429: 'BUSY',
  504: 'RENDER_TIMEOUT',
};

const codeOfStatus = (status: number): WireErrorCode => STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_INPUT');

/** The answer's code when this version knows it, else what its status stands for. */
export const remoteErrorCode = (error: ApiError): WireErrorCode => (isWireErrorCode(error.code) ? error.code : codeOfStatus(error.status));

const withPeriod = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export function explainRemoteError(error: unknown, apiUrl: string): unknown {
  if (error instanceof ApiUnreachableError) {
    return new ImprintError(
      'REMOTE_UNREACHABLE',
      `Could not reach the Imprint API at ${apiUrl} (${error.url}): ${error.reason}. Check the URL (\`imprint whoami\`, --api-url or IMPRINT_API_URL) and that the service is running.`,
      { cause: error },
    );
  }
  if (!(error instanceof ApiError)) return error;
  const said = withPeriod(error.serverMessage);
  const code = remoteErrorCode(error);
  switch (code) {
    case 'UNAUTHORIZED':
      return new ImprintError(
        code,
        `The Imprint API at ${apiUrl} refused the API key: ${said} Log in with \`imprint login\`, or pass a valid key with --api-key (env IMPRINT_API_KEY).`,
        { cause: error },
      );
    case 'NOT_FOUND':
      // The service's own message names the way to the ids; an answer without a code gets it added.
      return new ImprintError(code, error.code === undefined ? `${said} Run \`imprint list\` to see the published ids.` : said, { cause: error });
    case 'ROUTE_NOT_FOUND':
      return new ImprintError(
        code,
        `The Imprint API at ${apiUrl} has no such endpoint: ${said} Check that the API URL (\`imprint whoami\`, --api-url or IMPRINT_API_URL) is the service's base address.`,
        { cause: error },
      );
    case 'LIMIT_EXCEEDED':
      // The team's monthly limit: stops a batch, since every later row would meet it too.
      return new ImprintError(code, `Limit reached: ${said}`, { cause: error });
    case 'DOCUMENT_TOO_LARGE':
      // One document past the page or PDF-size limit: fails its row only.
      return new ImprintError(code, `Document too large: ${said}`, { cause: error });
    case 'BUSY':
      // Nothing wrong with the request: the render slots and the queue are full for now.
      return new ImprintError(code, `The Imprint API at ${apiUrl} is busy; ${retryAfterText(error.retryAfterSeconds)}. The service said: ${said}`, {
        cause: error,
        retryAfterSeconds: error.retryAfterSeconds,
      });
  }
  if (httpStatusOf(code) >= 500) return new ImprintError(code, `The Imprint API at ${apiUrl} failed (HTTP ${error.status}): ${said}`, { cause: error });
  return new ImprintError(code, said, { cause: error });
}
