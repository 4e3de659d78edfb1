/** Part C: `GET /api/me`, the caller's team and its usage (what `imprint whoami` shows). */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { authErrorResponses } from '../http/schemas.js';

export function meRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/me',
    {
      schema: {
        summary: "The API key's team, its monthly generation limit and this month's usage",
        tags: ['service'],
        response: {
          200: {
            type: 'object',
            required: ['team'],
            properties: {
              team: {
                type: 'object',
                required: ['name', 'generationLimit', 'usedThisMonth', 'month'],
                properties: {
                  name: { type: 'string' },
                  generationLimit: { type: 'integer' },
                  usedThisMonth: { type: 'integer', description: 'successful generations in the current UTC month' },
                  month: { type: 'string', description: 'the current UTC month, YYYY-MM' },
                },
              },
            },
          },
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const month = deps.now().toISOString().slice(0, 7);
      const { name, generationLimit } = request.team;
      return { team: { name, generationLimit, usedThisMonth: await deps.store.usage(request.team.id, month), month } };
    },
  );
}
