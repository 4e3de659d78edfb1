/**
 * Every failure becomes `{ "error": string, "code": string }` with the status its kind calls
 * for: `error` is api.md A5's message for a person, `code` the stable name a program decides
 * by (src/core/errors.ts, catalogued in docs/api.md). The full error, stack included, goes to
 * the log only: a client sees a message that is safe to show and tells it what to do.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusOf, ImprintError, isImprintError, isWireErrorCode, type ErrorCode, type WireErrorCode } from '../../core/errors.js';
import { formatBytes } from '../../core/limits/format-bytes.js';
import { isStorageUnavailable } from '../../core/store/objects/unavailable.js';
import { isStorageFull } from '../../core/store/storage-full.js';
import type { SecretRoutes } from './log-redaction.js';
import { refusalForLog } from './logger.js';
import { errorSchema } from './schemas.js';

export interface ErrorBody {
  error: string;
  code: WireErrorCode;
}

/** The one place an error body is built, for every answer of the service (socket-level ones included). */
export const errorBody = (code: WireErrorCode, message: string): ErrorBody => ({ error: message, code });

/**
 * 5xx codes whose message is about the caller's own template or page, or says when to try
 * again (the database out of reach), so worth showing; still logged in full.
 */
const SHOWN_SERVER_ERRORS = new Set<ErrorCode>(['RENDER_FAILED', 'RENDER_TIMEOUT', 'DATABASE_UNAVAILABLE']);
/** 5xx codes that are the service's state, not a fault: shown as they are, logged as a refusal. */
const ROUTINE_SERVER_ERRORS = new Set<ErrorCode>(['DRAINING']);

/** Fastify's own errors (body parsing, limits) in words a caller can act on. */
function fastifyMessage(error: FastifyError, request: FastifyRequest): string | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than the ${formatBytes(request.routeOptions.bodyLimit ?? 0)} this endpoint accepts.`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported Content-Type ${JSON.stringify(request.headers['content-type'] ?? '(none)')}: send the body as JSON with Content-Type: application/json.`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The body is empty: send a JSON object.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The body is not valid JSON: check its syntax (the Content-Type says application/json).';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return `The body is not valid JSON: ${error.message}.`;
  return undefined;
}

/**
 * Fastify's and Node's 4xx answers by their status: each of these statuses has one code. Any
 * other 4xx (none is known to arise) is a request the service cannot take as sent.
 */
const CLIENT_ERROR_CODES: Partial<Record<number, WireErrorCode>> = {
  400: 'INVALID_INPUT',
  404: 'ROUTE_NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

export const clientErrorCode = (status: number): WireErrorCode => CLIENT_ERROR_CODES[status] ?? 'INVALID_INPUT';

/**
 * An ImprintError's code as the service sends it: the codes that never leave a process (a CLI
 * usage error raised by the shared request parser, a build) by their status, the same status
 * they are answered with.
 */
const wireCode = (code: ErrorCode): WireErrorCode => (isWireErrorCode(code) ? code : httpStatusOf(code) < 500 ? clientErrorCode(httpStatusOf(code)) : 'INTERNAL');

/** The schema's first complaint, naming the field: `Invalid body: "props" must be object.` */
export function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required') {
    const field = [where, (first.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    return `Invalid ${error.validationContext ?? 'request'}: "${field}" is required.`;
  }
  if (first.keyword === 'enum') {
    const allowed = (first.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ');
    return `Invalid ${where}: use one of ${allowed}.`;
  }
  const subject = where ? `"${where}"` : `the ${error.validationContext ?? 'request'}`;
  return `Invalid ${error.validationContext ?? 'request'}: ${subject} ${first.message ?? 'is invalid'}.`;
}

/**
 * The data folder's disk is full (a PDF of a `json` result, a published template, or the usage
 * count could not be written). 507 Insufficient Storage rather than a bare 500: still a server
 * error to any client written against Part A, but one that says a retry later can succeed and
 * that the fault is the service's, not the request's. The folder's path stays in the log.
 */
export const STORAGE_FULL_STATUS = httpStatusOf('STORAGE_FULL');

/** For the routes that store something (a `json` result's PDF, a template, the usage count). */
export const storageFullResponse = {
  [STORAGE_FULL_STATUS]: { ...errorSchema, description: "The service's disk is full: nothing of the request was kept; try again later." },
} as const;

/**
 * The object storage (S3) cannot be reached: 503, a retry later can succeed. The bucket, the
 * endpoint and the cause are the operator's, in the log; the caller learns what failed.
 */
export const STORAGE_UNAVAILABLE_STATUS = httpStatusOf('STORAGE_UNAVAILABLE');

/** For the routes that read or write objects (publish, render, a `json` result, a download). */
export const storageUnavailableResponse = {
  [STORAGE_UNAVAILABLE_STATUS]: { ...errorSchema, description: "The service's object storage cannot be reached: nothing of the request was kept or counted; try again later." },
} as const;

export function toHttpError(error: unknown, request: FastifyRequest): { status: number; body: ErrorBody } {
  const answer = (status: number, code: WireErrorCode, message: string) => ({ status, body: errorBody(code, message) });
  if (isStorageFull(error)) return answer(STORAGE_FULL_STATUS, 'STORAGE_FULL', storageFullMessage(request));
  if (isStorageUnavailable(error)) return answer(STORAGE_UNAVAILABLE_STATUS, 'STORAGE_UNAVAILABLE', storageUnavailableMessage(request));
  // No browser on the service's machine: every render fails the same way until its operator
  // installs one, so the caller learns that (503, and what the operator has to do) rather than
  // an INTERNAL it would retry. /healthz says the same.
  if (isImprintError(error) && error.code === 'BROWSER_NOT_FOUND') return answer(httpStatusOf('BROWSER_UNAVAILABLE'), 'BROWSER_UNAVAILABLE', browserUnavailableMessage(error));
  if (isImprintError(error)) {
    const status = error.httpStatus;
    if (status < 500 || SHOWN_SERVER_ERRORS.has(error.code) || ROUTINE_SERVER_ERRORS.has(error.code)) return answer(status, wireCode(error.code), error.message);
    return answer(status, 'INTERNAL', internalMessage(request));
  }
  const fastifyError = error as FastifyError;
  if (fastifyError?.validation) return answer(400, 'INVALID_INPUT', describeValidation(fastifyError));
  const status = fastifyError?.statusCode;
  if (status && status >= 400 && status < 500) {
    return answer(status, clientErrorCode(status), fastifyMessage(fastifyError, request) ?? fastifyError.message);
  }
  return answer(500, 'INTERNAL', internalMessage(request));
}

const storageFullMessage = (request: FastifyRequest) =>
  `The service is out of disk space, so it could not store what this request needed; the request was not carried out and nothing of it was kept. Try again later: the operator of this service has to free disk space (request ${request.id} in the service's log).`;

const storageUnavailableMessage = (request: FastifyRequest) =>
  `The service's object storage cannot be reached, so it could not read or store what this request needed (a template, a PDF); the request was not carried out and nothing of it was counted. Try again shortly; if it persists, the operator of this service can find the details in its log under request ${request.id}.`;

const browserUnavailableMessage = (error: ImprintError) =>
  `The service has no browser to render with, so nothing was rendered or counted: ${error.message} The operator of this service has to do this; /healthz answers 503 until a browser is found, and the next render looks for it again (no restart needed).`;

const internalMessage = (request: FastifyRequest) =>
  `Internal error (request ${request.id}): the service could not complete the request. Try again; if it persists, its operator can find the details in the service's log under this request id.`;

/** RFC 9110 11.6.1: a 401 names the scheme that would be accepted. */
const AUTH_CHALLENGE = 'Bearer realm="imprint"';

/** `routes`: how the log (and the 404's message) shows a URL that may carry a secret (log-redaction.ts). */
export function installErrorHandling(app: FastifyInstance, routes?: SecretRoutes): void {
  app.setErrorHandler((error, request, reply: FastifyReply) => {
    const { status, body } = toHttpError(error, request);
    // A full render queue says when to come back (ImprintError.retryAfterSeconds, answered 429).
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number' && retryAfter > 0) void reply.header('Retry-After', String(Math.ceil(retryAfter)));
    if (body.code === 'UNAUTHORIZED') void reply.header('WWW-Authenticate', AUTH_CHALLENGE);
    // A caller's mistake, or a refusal while shutting down, is routine; anything else is logged in full for the operator.
    if (status >= 500 && !ROUTINE_SERVER_ERRORS.has(body.code)) request.log.error({ err: error }, 'request failed');
    // `details` is never sent: for a refused url it is the policy's reason, which is the operator's to see.
    else request.log.info({ status, ...refusalForLog({ code: body.code }, body.error, isImprintError(error) ? error.details : undefined) }, 'request refused');
    void reply.code(status).type('application/json').send(body);
  });

  // Thrown, not answered here, so an unknown endpoint's 404 takes the same path as every error.
  app.setNotFoundHandler(async (request) => {
    // The path as the log may show it: a mistyped download link's token is not repeated into the log.
    const shown = (routes?.urlOf(request) ?? request.url).split('?')[0];
    throw new ImprintError('ROUTE_NOT_FOUND', `No endpoint ${request.method} ${shown}. The API is described at /openapi.json.`);
  });
}

export const unauthorized = (message: string) => new ImprintError('UNAUTHORIZED', message);
