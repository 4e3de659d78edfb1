/**
 * Where Prometheus scrapes: `GET /metrics` on a port of its own (--metrics-port), or on the
 * API's port when the operator asks (--metrics-on-api-port). Never behind an API key: a
 * scraper holds no team's key, and the metrics name no team unless the operator allows it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** On the API's own app: public (no key), left out of the OpenAPI description. */
export function metricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get(METRICS_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** A plain HTTP listener answering only GET /metrics: nothing of the API is reachable through it. */
export async function listenForMetrics(metrics: Metrics, host: string, port: number, onError: (error: unknown) => void): Promise<MetricsListener> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Only GET ${METRICS_PATH} is served on this port.\n`);
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected; the service log says why.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is already in use' : error.code === 'EACCES' ? 'permission denied' : undefined;
      reject(why ? new ImprintError('USAGE', `Cannot serve metrics on ${host}:${port}: ${why}. Choose another --metrics-port.`, { cause: error }) : error);
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown === '[::]' ? '[::1]' : shown}:${address.port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
