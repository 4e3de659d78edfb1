/** `GET /openapi.json`: the OpenAPI 3 description @fastify/swagger builds from the route schemas. */
import type { FastifyInstance } from 'fastify';

export function openapiRoutes(app: FastifyInstance) {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
