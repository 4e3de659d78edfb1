/** The service's shutdown gate: a file of its own because it answers every route, /healthz included. */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { AppDeps } from '../deps.js';
import { HEALTH_PATH } from '../routes/health.js';

const DRAINING_MESSAGE = 'The service is shutting down: it finishes the requests in progress and takes no new ones. Send the request again, to another instance if there is one.';

/**
 * Shutdown in the service's terms. Once app.close() has begun:
 * - a request that still arrives (on a connection that was already open) is not served: it
 *   gets 503 with an error object (code DRAINING, from the service's error handler), /healthz
 *   its "draining" answer, before authentication and before any work. Installed first of the
 *   request hooks; needs `return503OnClosing: false`, or Fastify answers such requests itself
 *   with a body of another shape;
 * - every answer, the renders in progress included, tells the client that the connection
 *   closes after it, and a connection left idle is closed at once. Node closes only the
 *   connections idle at the moment of close(): one whose request finishes later would be kept
 *   for the whole keep-alive timeout (minutes behind some load balancers), and the process
 *   with it.
 */
export function installDrainGate(app: FastifyInstance, deps: Pick<AppDeps, 'version'>): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    void reply.header('connection', 'close');
    if (request.url.split('?')[0] === HEALTH_PATH) {
      request.log.info('refused while shutting down');
      return reply.code(503).send({ status: 'unavailable', service: 'draining', browser: 'not asked: the service is shutting down', version: deps.version, error: DRAINING_MESSAGE });
    }
    throw new ImprintError('DRAINING', DRAINING_MESSAGE);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining && !reply.raw.headersSent) void reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    // An answer whose headers went out before the shutdown (a download) leaves its connection idle now.
    if (draining) setImmediate(() => app.server.closeIdleConnections());
  });
}
