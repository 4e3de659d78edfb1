/**
 * `GET /openapi.json`: the OpenAPI 3 description @fastify/swagger builds from the route schemas.
 * Behind the key like every endpoint but /healthz (probes carry no key) and /api/files (its
 * token is the credential).
 */
import type { FastifyInstance } from 'fastify';

export function openapiRoutes(app: FastifyInstance) {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
