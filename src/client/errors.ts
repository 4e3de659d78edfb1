/** What the client throws: the server answered with an error, or could not be reached. */

export class ApiError extends Error {
  /** When the service asked to be called again (its Retry-After header, on a 429 or 503), in seconds. */
  readonly retryAfterSeconds?: number;
  /**
   * The answer's `code` (docs/api.md's catalogue), what a program decides by; absent when the
   * answer had none (a proxy's page, a service older than the codes). Possibly a code newer
   * than this client: compare it, do not assume it is one of a fixed list.
   */
  readonly code?: string;

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The server's `error` text (api.md A5), or a description of an answer that had none. */
    readonly serverMessage: string,
    readonly method: string,
    readonly url: string,
    options: {
      /** The answer's Retry-After header in seconds (429, 503), when it had a valid one. */
      retryAfterSeconds?: number;
      /** The answer's `code`, when it had one. */
      code?: string;
      /** Replaces the default message (`<method> <url> answered <status>: <server message>`). */
      message?: string;
    } = {},
  ) {
    super(options.message ?? `${method} ${url} answered ${status}: ${serverMessage}`);
    this.name = 'ApiError';
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.code !== undefined) this.code = options.code;
  }
}

/**
 * 429 (code BUSY): the service's render slots and queue are full. Nothing is wrong with the
 * request: the same request succeeds once the service has room, after `retryAfterSeconds` when it said.
 */
export class ApiBusyError extends ApiError {
  constructor(serverMessage: string, method: string, url: string, retryAfterSeconds: number | undefined, code?: string) {
    super(429, serverMessage, method, url, {
      retryAfterSeconds,
      code,
      message: `${method} ${url} answered 429: the service is busy; ${retryAfterText(retryAfterSeconds)} (${serverMessage})`,
    });
    this.name = 'ApiBusyError';
  }
}

/** "retry after 3 s", or without a Retry-After "retry in a moment". */
export const retryAfterText = (seconds: number | undefined) => (seconds === undefined ? 'retry in a moment' : `retry after ${seconds} s`);

export const isApiBusyError = (error: unknown): error is ApiBusyError => error instanceof ApiBusyError;

/**
 * A Retry-After header (RFC 9110 10.2.3) in whole seconds from `now`: delay-seconds, or an
 * HTTP-date (a date already past is 0). Anything else, or several values, is undefined: the
 * caller then decides the wait itself.
 */
export function parseRetryAfter(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || Array.isArray(header)) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  // An HTTP-date names its weekday and GMT: "Wed, 21 Oct 2015 07:28:00 GMT" (or the obsolete forms).
  if (!/GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export class ApiUnreachableError extends Error {
  constructor(
    readonly url: string,
    /** e.g. "connection refused", "host not found". */
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Could not reach ${url}: ${reason}`, options);
    this.name = 'ApiUnreachableError';
  }
}
