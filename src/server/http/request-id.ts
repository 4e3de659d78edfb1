/**
 * Every request has an id: the caller's `x-request-id` when it sends a usable one (a proxy or
 * a client that logs its own ids), otherwise a new UUID. The id is Fastify's request id, so
 * every log line of the request carries it (as `reqId`); it is sent back in the `x-request-id`
 * header of every answer, and in error bodies as `requestId`, so "it failed" can be found in
 * the log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a caller may choose as an id: short, and only characters that cannot break a log line,
 * a header or a query (no spaces, quotes or control characters). Anything else is replaced,
 * not refused: a bad id is no reason to fail a render.
 */
const USABLE_ID = /^[A-Za-z0-9._:+=/@-]{1,128}$/;

export function usableRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && USABLE_ID.test(value) ? value : undefined;
}

/** Fastify's genReqId. */
export function requestIdOf(request: IncomingMessage): string {
  return usableRequestId(request.headers[REQUEST_ID_HEADER]) ?? randomUUID();
}

/** Installed before every other request hook, so an answer given early (401, 503) carries it too. */
export function installRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
  installRequestIdInErrors(app);
}

/**
 * Every error body (`{ error }`, whoever answers: the error handler, authentication, the
 * shutdown gate) gets the request's id beside its message.
 */
function installRequestIdInErrors(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
    const body = payload as Record<string, unknown>;
    if (typeof body.error !== 'string' || 'requestId' in body) return payload;
    return { ...body, requestId: request.id };
  });
}
