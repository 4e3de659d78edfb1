/** The app's part of the metrics: every answer counted, and /metrics itself when it is served on the API's port. */
import type { FastifyInstance } from 'fastify';
import { installHttpMetrics } from './http-metrics.js';
import { metricsRoute } from './metrics-endpoint.js';
import type { Metrics } from './metrics.js';

export interface AppMetrics {
  metrics: Metrics;
  /** Serve GET /metrics on the API's port too (the operator's --metrics-on-api-port). */
  onApiPort: boolean;
}

export function installMetrics(app: FastifyInstance, { metrics, onApiPort }: AppMetrics): void {
  installHttpMetrics(app, metrics);
  if (onApiPort) metricsRoute(app, metrics);
}
