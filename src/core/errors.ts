/**
 * One error family for the whole project. Every failure a user can meet is an ImprintError
 * with a stable `code`; the CLI maps it to an exit code and the server to an HTTP status, so
 * neither face has to guess what kind of failure it is looking at.
 */
export type ErrorCode =
  | 'USAGE' // bad flag or flag value: the CLI exits 2
  | 'INVALID_INPUT' // bad props, bad request body field
  | 'NOT_FOUND' // unknown template id, file or download token
  | 'UNAUTHORIZED'
  | 'LIMIT_EXCEEDED' // the team's generation limit
  | 'DOCUMENT_TOO_LARGE' // the printed document has more pages or bytes than the service returns
  | 'URL_DENIED' // the url's destination is not allowed by the network policy
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BUILD_FAILED' // esbuild could not bundle a template
  | 'RENDER_FAILED' // the template threw in the page, or the page could not load
  | 'RENDER_TIMEOUT'
  | 'BROWSER_NOT_FOUND'
  | 'BROWSER_FAILED'
  | 'OUTPUT_FAILED' // output path not writable
  | 'REMOTE_UNREACHABLE'
  | 'BUSY' // the render queue is full: try again after retryAfterSeconds
  | 'INTERNAL';

const HTTP_STATUS: Record<ErrorCode, number> = {
  USAGE: 400,
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  LIMIT_EXCEEDED: 422,
  DOCUMENT_TOO_LARGE: 422,
  URL_DENIED: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BUILD_FAILED: 400,
  RENDER_FAILED: 500,
  RENDER_TIMEOUT: 504,
  BROWSER_NOT_FOUND: 500,
  BROWSER_FAILED: 500,
  OUTPUT_FAILED: 500,
  REMOTE_UNREACHABLE: 502,
  BUSY: 429,
  INTERNAL: 500,
};

export class ImprintError extends Error {
  readonly code: ErrorCode;
  /** Extra lines shown under the message by the CLI (a code frame, a list of paths...). */
  readonly details?: string;
  /** For BUSY: when the caller may try again (the server's Retry-After header). */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: string; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ImprintError';
    this.code = code;
    this.details = options.details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }

  /** Usage errors exit 2, every other failure 1 (the brief's rule). */
  get exitCode(): number {
    return this.code === 'USAGE' ? 2 : 1;
  }
}

export const isImprintError = (error: unknown): error is ImprintError => error instanceof ImprintError;

export const usageError = (message: string) => new ImprintError('USAGE', message);
export const invalidInput = (message: string, details?: string) =>
  new ImprintError('INVALID_INPUT', message, { details });
export const notFound = (message: string) => new ImprintError('NOT_FOUND', message);
