/**
 * Every answer counted and timed by method, route and status. The route is the pattern the
 * request matched (/api/documents/:documentId), never the URL itself: ids and download tokens
 * would make a series per request and leak capabilities to whoever reads the metrics.
 */
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** What requests that matched no route are counted under. */
export const UNMATCHED_ROUTE = 'unmatched';

export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
    metrics.http.requests.inc(labels);
    metrics.http.duration.observe(labels, reply.elapsedTime / 1000);
  });
}
