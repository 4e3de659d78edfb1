/**
 * `GET /openapi.json`: the OpenAPI 3 description @fastify/swagger builds from the route schemas.
 * Behind the key like every endpoint but /healthz and /api/files (the rule).
 */
import type { FastifyInstance } from 'fastify';

export function openapiRoutes(app: FastifyInstance) {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
