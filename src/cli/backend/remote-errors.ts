/**
 * The client's errors as a person at a terminal should read them: what the service said, and
 * what to do next (log in, list the ids, mind the limit, come back later). Each becomes an
 * ImprintError, so the CLI's one boundary (main.ts) prints it and sets the exit code as for
 * any other failure; the client's error stays the cause, with its HTTP status and Retry-After.
 */
import { ApiError, ApiUnreachableError, retryAfterText } from '../../client/errors.js';
import { ImprintError, type ErrorCode } from '../../core/errors.js';

const CODES: Record<number, ErrorCode> = {
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

const withPeriod = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * api.md gives 422 one meaning, the team's generation limit, which every later request of the
 * team meets too. This service also answers 422 for one document past the page or PDF-size
 * limit (docs/api.md), which is about that document only; its message says so in words of
 * src/core/limits/document-limits.ts ("... per document this service renders/returns"). Any
 * other 422 is the contract's: the generation limit.
 */
export function isDocumentTooLarge(serverMessage: string): boolean {
  return /\bper document this service (renders|returns)\b/.test(serverMessage);
}

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
  const code = CODES[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT');
  switch (error.status) {
    case 401:
      return new ImprintError(
        code,
        `The Imprint API at ${apiUrl} refused the API key: ${said} Log in with \`imprint login\`, or pass a valid key with --api-key (env IMPRINT_API_KEY).`,
        { cause: error },
      );
    case 404:
      return new ImprintError(code, said.includes('imprint list') ? said : `${said} Run \`imprint list\` to see the published ids.`, { cause: error });
    case 422:
      // The team's monthly limit (stops a batch), or one document past the page or size limit (fails its row only).
      if (isDocumentTooLarge(error.serverMessage)) return new ImprintError('DOCUMENT_TOO_LARGE', `Document too large: ${said}`, { cause: error });
      return new ImprintError(code, `Limit reached: ${said}`, { cause: error });
    case 429:
      // Nothing wrong with the request: the render slots and the queue are full for now.
      return new ImprintError(code, `The Imprint API at ${apiUrl} is busy; ${retryAfterText(error.retryAfterSeconds)}. The service said: ${said}`, {
        cause: error,
        retryAfterSeconds: error.retryAfterSeconds,
      });
  }
  if (error.status >= 500) return new ImprintError(code, `The Imprint API at ${apiUrl} failed (HTTP ${error.status}): ${said}`, { cause: error });
  return new ImprintError(code, said, { cause: error });
}
