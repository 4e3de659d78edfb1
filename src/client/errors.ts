/** What the client throws: the server answered with an error, or could not be reached. */

export class ApiError extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The server's `error` text (api.md A5), or a description of an answer that had none. */
    readonly serverMessage: string,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} ${url} answered ${status}: ${serverMessage}`);
    this.name = 'ApiError';
  }
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
