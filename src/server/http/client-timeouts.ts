/**
 * Slow and stalled clients are cut off by the server, so a few sockets that send a byte now
 * and then cannot hold the service's connections, memory and file descriptors forever
 * (slowloris). Four bounds, each configurable on `imprint serve`:
 *
 * - headers: the request line and headers must arrive within `headersMs`;
 * - request: the whole request, body included, within `requestMs` (a body dribbled in a byte
 *   at a time still ends);
 * - idle: a connection on which nothing moves for `idleMs` is closed: a client that stops
 *   sending its body, or stops reading its answer. Not while its document renders: the socket
 *   is silent then by design, and the render deadline bounds that wait;
 * - keep-alive: an idle connection between requests is closed after `keepAliveMs`.
 *
 * The first two are Node's (408 with an error object, then the connection is closed); the
 * idle bound is Node's socket timeout with the render exemption added here.
 */
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientErrorCode, errorBody } from './errors.js';

export interface ClientTimeouts {
  headersMs: number;
  requestMs: number;
  idleMs: number;
  keepAliveMs: number;
}

export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = {
  headersMs: 10_000,
  // 10 MiB of props in 60 s is ~1.4 Mbit/s; a 50 MiB template upload needs ~7 Mbit/s.
  requestMs: 60_000,
  idleMs: 30_000,
  // Node's own default. Behind a load balancer that reuses connections, set it above the
  // balancer's idle timeout, or the two race to close the same connection.
  keepAliveMs: 5_000,
};

/** Node checks the headers and request bounds on an interval; this keeps the check within a fraction of the bound. */
function checkingIntervalMs(timeouts: ClientTimeouts): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Node's 408, 431 and 400 answers in the service's error shape (api.md A5, with its code), then the connection closes. */
function clientErrorHandler(timeouts: ClientTimeouts) {
  return function onClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, `The request did not arrive in time: this service waits ${seconds(timeouts.headersMs)} for the headers and ${seconds(timeouts.requestMs)} for the whole request.`]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'The request headers are too large.']
          : [400, 'The request is not valid HTTP.'];
    this.log.info({ err: error, status }, 'client connection closed');
    if (socket.writable) {
      const body = JSON.stringify(errorBody(clientErrorCode(status), message));
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

/** The Fastify options that carry the bounds to Node's HTTP server. */
export function clientTimeoutOptions(timeouts: ClientTimeouts): FastifyHttpOptions<Server> {
  return {
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkingIntervalMs(timeouts),
    },
    clientErrorHandler: clientErrorHandler(timeouts),
  };
}

/**
 * Node closes a socket that is idle past `connectionTimeout` unless someone listens for the
 * timeout. The response listens, and decides: while the body is still arriving or the answer
 * is being written, idleness is a stalled client (close); after the request arrived and
 * before the answer starts, the service is rendering (keep waiting: the deadline ends it).
 */
export function installIdleTimeout(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.on('timeout', (socket: Socket) => {
      if (request.raw.complete && !reply.raw.headersSent) return;
      request.log.info({ receiving: !request.raw.complete }, 'closing a stalled connection');
      socket.destroy();
    });
  });
}
