/**
 * One error family for the whole project. Every failure a user can meet is an ImprintError
 * with a stable `code`; the CLI maps it to an exit code and the server to an HTTP status, so
 * neither face has to guess what kind of failure it is looking at.
 */
export type ErrorCode =
  | 'USAGE' // bad flag or flag value: the CLI exits 2
  | 'INVALID_INPUT' // bad props, bad request body field
  | 'NOT_FOUND' // unknown template id, file or download token
  | 'ROUTE_NOT_FOUND' // the service has no such endpoint (a wrong API URL or method)
  | 'UNAUTHORIZED'
  | 'LIMIT_EXCEEDED' // the team's generation limit
  | 'DOCUMENT_TOO_LARGE' // the printed document has more pages or bytes than the service returns
  | 'PAGE_NUMBERS_UNSETTLED' // a table of contents or page reference kept moving what it numbers (core/render/page-number-passes.ts)
  | 'URL_DENIED' // the url's destination is not allowed by the network policy
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BUILD_FAILED' // esbuild could not bundle a template
  | 'RENDER_FAILED' // the template threw in the page, or the page could not load
  | 'RENDER_TIMEOUT'
  | 'BROWSER_NOT_FOUND'
  | 'BROWSER_FAILED'
  | 'BROWSER_UNAVAILABLE' // the service has no browser to render with (BROWSER_NOT_FOUND as the service answers it)
  | 'DOWNLOAD_FAILED' // `imprint browser install` could not fetch or unpack the browser
  | 'OUTPUT_FAILED' // output path not writable
  | 'REMOTE_UNREACHABLE'
  | 'BUSY' // the render queue is full: try again after retryAfterSeconds
  | 'REQUEST_TIMEOUT' // the client did not send its request within the service's bounds
  | 'HEADERS_TOO_LARGE'
  | 'STORAGE_FULL' // the service's data folder is out of disk space
  | 'DRAINING' // the service is shutting down and takes no new requests
  | 'DATABASE_UNAVAILABLE' // the service's PostgreSQL cannot be reached for the moment
  | 'STORAGE_UNAVAILABLE' // the service's object storage (S3) cannot be reached
  | 'INTERRUPTED' // the CLI was stopped (Ctrl-C) while work goes on elsewhere (a job on the service): it exits 130
  | 'FORBIDDEN' // a dashboard request from another origin or without its CSRF token
  | 'TOO_MANY_ATTEMPTS' // too many dashboard sign-in attempts from one address: try again after retryAfterSeconds
  | 'TIMESTAMP_FAILED' // the time-stamp authority (--tsa, sign.tsa) could not be reached or answered no valid token
  | 'INTERNAL';

const HTTP_STATUS: Record<ErrorCode, number> = {
  USAGE: 400,
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  LIMIT_EXCEEDED: 422,
  DOCUMENT_TOO_LARGE: 422,
  PAGE_NUMBERS_UNSETTLED: 422,
  URL_DENIED: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BUILD_FAILED: 400,
  RENDER_FAILED: 500,
  RENDER_TIMEOUT: 504,
  BROWSER_NOT_FOUND: 500,
  BROWSER_FAILED: 500,
  BROWSER_UNAVAILABLE: 503,
  DOWNLOAD_FAILED: 502,
  OUTPUT_FAILED: 500,
  REMOTE_UNREACHABLE: 502,
  BUSY: 429,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  STORAGE_FULL: 507,
  DRAINING: 503,
  DATABASE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  INTERRUPTED: 499,
  FORBIDDEN: 403,
  TOO_MANY_ATTEMPTS: 429,
  TIMESTAMP_FAILED: 502,
  INTERNAL: 500,
};

/**
 * The codes the HTTP service sends beside `error` (docs/api.md lists each with its status,
 * meaning and remedy). The others never leave the process that raised them: a CLI usage error,
 * an output path, a build, a browser that crashed (the service answers those as INTERNAL, its
 * details in its log); a browser not found is answered as BROWSER_UNAVAILABLE (src/server/http/errors.ts). A client reads the code, never the message, to decide what a failure is.
 */
export const WIRE_ERROR_CODES = [
  'INVALID_INPUT',
  'UNAUTHORIZED',
  'URL_DENIED',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'LIMIT_EXCEEDED',
  'DOCUMENT_TOO_LARGE',
  'PAGE_NUMBERS_UNSETTLED',
  'BUSY',
  'HEADERS_TOO_LARGE',
  'RENDER_FAILED',
  'INTERNAL',
  'DRAINING',
  'RENDER_TIMEOUT',
  'STORAGE_FULL',
  'DATABASE_UNAVAILABLE',
  'STORAGE_UNAVAILABLE',
  'BROWSER_UNAVAILABLE',
  'FORBIDDEN',
  'TOO_MANY_ATTEMPTS',
  'TIMESTAMP_FAILED',
] as const satisfies readonly ErrorCode[];

export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

const WIRE_CODES: ReadonlySet<string> = new Set(WIRE_ERROR_CODES);

/** Whether an answer's `code` is one this version knows (a newer service may send others). */
export const isWireErrorCode = (value: unknown): value is WireErrorCode => typeof value === 'string' && WIRE_CODES.has(value);

/** The HTTP status the service answers a code with. */
export const httpStatusOf = (code: ErrorCode): number => HTTP_STATUS[code];

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
    return httpStatusOf(this.code);
  }

  /**
   * Usage errors exit 2, every other failure 1, so a script can tell a mistyped command from a
   * failed render; an interrupted command 130, as a shell reports a Ctrl-C.
   */
  get exitCode(): number {
    if (this.code === 'INTERRUPTED') return 130;
    return this.code === 'USAGE' ? 2 : 1;
  }
}

export const isImprintError = (error: unknown): error is ImprintError => error instanceof ImprintError;

export const usageError = (message: string) => new ImprintError('USAGE', message);
export const invalidInput = (message: string, details?: string) =>
  new ImprintError('INVALID_INPUT', message, { details });
export const notFound = (message: string) => new ImprintError('NOT_FOUND', message);
