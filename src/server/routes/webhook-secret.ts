/**
 * `POST /api/webhook-secret`: makes the caller's team a new webhook signing secret and answers
 * it, once (api.md Part D). The previous secret stops signing at once, so a receiver should
 * accept both for the few minutes it takes to switch (docs/webhooks.md). No body is needed.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { storageFullResponse } from '../http/errors.js';
import { authErrorResponses, mediaTypeResponse } from '../http/schemas.js';
import { guideUrl } from '../../core/guides.js';

export function webhookSecretRoutes(app: FastifyInstance, deps: AppDeps) {
  app.post(
    '/api/webhook-secret',
    {
      schema: {
        summary: "Make the team's webhook signing secret, replacing the previous one (shown only in this answer)",
        description: 'Job webhooks carry Standard Webhooks signatures made with this secret. No request body is needed.',
        externalDocs: { description: 'Webhooks', url: guideUrl('webhooks') },
        tags: ['jobs'],
        response: {
          201: {
            type: 'object',
            required: ['secret'],
            properties: { secret: { type: 'string', pattern: '^whsec_', description: 'whsec_ and the base64 of 32 random bytes; shown only this once' } },
          },
          415: mediaTypeResponse,
          ...authErrorResponses,
          ...storageFullResponse,
        },
      },
    },
    async (request, reply) => {
      const secret = await deps.store.rotateWebhookSecret(request.team.id);
      // The secret is in the body only: nothing caches it on the way.
      return reply.code(201).header('cache-control', 'no-store').send({ secret });
    },
  );
}
