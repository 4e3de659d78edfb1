/**
 * api.md Part E: `POST /api/templates/{id}/rollback` with `{ "version": n }` publishes version
 * n again as a new latest version (the history stays immutable) and answers 201 like a publish.
 */
import type { FastifyInstance } from 'fastify';
import { parseTemplateVersion } from '../../core/template-version.js';
import type { AppDeps } from '../deps.js';
import { storageFullResponse } from '../http/errors.js';
import { authErrorResponses, badRequestResponse, mediaTypeResponse, notFoundResponse, publishedSchema, templateIdParam } from '../http/schemas.js';

/** A publish's answer, naming the version that was published again. */
const rolledBackSchema = {
  ...publishedSchema,
  required: [...publishedSchema.required, 'rollbackOf'],
  properties: { ...publishedSchema.properties, rollbackOf: { type: 'integer', description: 'the version that was published again' } },
} as const;

export function templateRollbackRoute(app: FastifyInstance, deps: AppDeps) {
  app.post<{ Params: { id: string }; Body: { version?: unknown } }>(
    '/api/templates/:id/rollback',
    {
      attachValidation: true,
      schema: {
        summary: 'Publish an earlier version again as the latest (api.md Part E)',
        tags: ['templates'],
        params: templateIdParam,
        body: { type: 'object', required: ['version'], properties: { version: { type: 'integer', minimum: 1, description: 'the version to publish again' } } },
        response: { 201: rolledBackSchema, 400: badRequestResponse, 404: notFoundResponse, 415: mediaTypeResponse, ...authErrorResponses, ...storageFullResponse },
      },
    },
    async (request, reply) => {
      // The core's rule and words for a version, whatever the JSON schema would have said.
      const version = parseTemplateVersion((request.body as { version?: unknown } | undefined)?.version);
      const rolled = await deps.store.rollbackTemplate(request.team.id, request.params.id, version, { publishedBy: request.apiKeyId });
      return reply.code(201).send({ id: rolled.id, uuid: rolled.uuid, version: rolled.version, publishedAt: rolled.publishedAt, rollbackOf: rolled.rollbackOf });
    },
  );
}
