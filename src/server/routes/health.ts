/**
 * Part C: `GET /healthz`, for load balancers and orchestrators: the service answers, and its
 * browser is up (launched on first ask, so a ready answer means a render can start now).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';

const healthSchema = {
  type: 'object',
  required: ['status', 'service', 'browser'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    service: { type: 'string', enum: ['ok'] },
    browser: { type: 'string', description: '"ok", or why the browser is not ready' },
    version: { type: 'string' },
    error: { type: 'string', description: 'present when status is unavailable' },
  },
} as const;

export function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        summary: 'Liveness and readiness of the service and its browser (no key needed)',
        tags: ['service'],
        security: [],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      try {
        const browser = await deps.browsers.browser();
        if (!browser.connected) throw new Error('the browser is not connected');
        return { status: 'ok', service: 'ok', browser: 'ok', version: deps.version };
      } catch (error) {
        request.log.error({ err: error }, 'health check: browser not ready');
        const why = `not ready: ${(error as Error).message.split('\n')[0]}`;
        return reply.code(503).send({ status: 'unavailable', service: 'ok', browser: why, version: deps.version, error: `The service's browser is ${why}.` });
      }
    },
  );
}
