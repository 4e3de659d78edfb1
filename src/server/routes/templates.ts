/**
 * Part C: publishing and managing a team's templates. The CLI bundles a template locally and
 * uploads the artifact (core/artifact.ts) as a JSON object; the server checks it with the
 * core's decoder and stores it byte for byte as the embedded mode would.
 */
import type { FastifyInstance } from 'fastify';
import { ARTIFACT_FORMAT, decodeArtifact } from '../../core/artifact.js';
import { ImprintError } from '../../core/errors.js';
import { validateTemplateId } from '../../core/template-id.js';
import type { AppDeps } from '../deps.js';
import { templateRollbackRoute } from './template-rollback.js';
import { storageFullResponse, storageUnavailableResponse } from '../http/errors.js';
import {
  authErrorResponses,
  badRequestResponse,
  mediaTypeResponse,
  notFoundResponse,
  publishedSchema,
  templateIdParam,
  templateIdSchema,
  timestamp,
  tooLargeResponse,
} from '../http/schemas.js';

const summarySchema = {
  type: 'object',
  required: ['id', 'uuid', 'latestVersion', 'publishedAt', 'createdAt'],
  properties: {
    id: { type: 'string' },
    uuid: { type: 'string', format: 'uuid' },
    latestVersion: { type: 'integer' },
    publishedAt: { ...timestamp, description: 'when the latest version was published' },
    createdAt: timestamp,
  },
} as const;

const detailsSchema = {
  type: 'object',
  required: ['id', 'uuid', 'createdAt', 'versions'],
  properties: {
    id: { type: 'string' },
    uuid: { type: 'string', format: 'uuid' },
    createdAt: timestamp,
    versions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['version', 'publishedAt', 'bytes', 'artifactSha256'],
        properties: {
          version: { type: 'integer' },
          publishedAt: timestamp,
          bytes: { type: 'integer', description: 'size of the stored artifact' },
          artifactSha256: { type: 'string', description: 'SHA-256 of the stored artifact (its JSON text)' },
          sourceName: { type: ['string', 'null'], description: "the template's file name" },
          publishedBy: { type: ['string', 'null'], description: 'the id of the API key that published it; null when published before this was recorded' },
          rollbackOf: { type: ['integer', 'null'], description: 'for a version made by a rollback: the version it republished' },
        },
      },
    },
  },
} as const;

const notFound = (id: string) =>
  new ImprintError('NOT_FOUND', `No template "${id}" in this team. Run \`imprint list\` (or GET /api/templates) to see the published ids.`);

export function templateRoutes(app: FastifyInstance, deps: AppDeps) {
  app.post<{ Body: { id: string; artifact: Record<string, unknown>; propsSchema?: object } }>(
    '/api/templates',
    {
      bodyLimit: deps.limits.artifactBytes,
      schema: {
        summary: 'Publish a template bundle as a new immutable version',
        tags: ['templates'],
        body: {
          type: 'object',
          required: ['id', 'artifact'],
          properties: {
            id: templateIdSchema,
            artifact: {
              type: 'object',
              description: `the bundle \`imprint publish\` builds: {"format": "${ARTIFACT_FORMAT}", "sourceName", "js", "css", "sourceMap"?, "assets"}`,
              required: ['format', 'js', 'css', 'assets'],
              properties: {
                format: { type: 'string', enum: [ARTIFACT_FORMAT] },
                sourceName: { type: 'string' },
                js: { type: 'string' },
                css: { type: 'string' },
                sourceMap: { type: 'string' },
                assets: { type: 'object', additionalProperties: { type: 'object', required: ['contentType', 'base64'], properties: { contentType: { type: 'string' }, base64: { type: 'string' } } } },
              },
            },
            propsSchema: {
              type: 'object',
              additionalProperties: true,
              description: "optional: the JSON Schema of the template's props (what `imprint publish` derives from the props type); every render of this version is checked against it (400 naming the fields)",
            },
          },
        },
        response: { 201: publishedSchema, 400: badRequestResponse, 413: tooLargeResponse, 415: mediaTypeResponse, ...authErrorResponses, ...storageFullResponse, ...storageUnavailableResponse },
      },
    },
    async (request, reply) => {
      const id = validateTemplateId(request.body.id);
      // The stored bytes are the artifact's JSON text, exactly as the embedded mode writes it.
      const bytes = Buffer.from(JSON.stringify(request.body.artifact));
      const artifact = decodeArtifact(bytes);
      const published = await deps.engine.publish(request.team, id, bytes, artifact.sourceName, request.body.propsSchema, request.apiKeyId);
      return reply.code(201).send({ id: published.id, uuid: published.uuid, version: published.version, publishedAt: published.publishedAt });
    },
  );

  app.get(
    '/api/templates',
    {
      schema: {
        summary: "List the team's templates with their latest version",
        tags: ['templates'],
        response: { 200: { type: 'object', required: ['templates'], properties: { templates: { type: 'array', items: summarySchema } } }, ...authErrorResponses },
      },
    },
    async (request) => ({ templates: await deps.engine.list(request.team) }),
  );

  app.get<{ Params: { id: string } }>(
    '/api/templates/:id',
    {
      schema: {
        summary: "One template's metadata and its versions",
        tags: ['templates'],
        params: templateIdParam,
        response: { 200: detailsSchema, 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const details = await deps.store.getTemplate(request.team.id, request.params.id);
      if (!details) throw notFound(request.params.id);
      return details;
    },
  );

  templateRollbackRoute(app, deps);

  app.delete<{ Params: { id: string } }>(
    '/api/templates/:id',
    {
      schema: {
        summary: 'Remove a template (its versions are kept until the operator purges them)',
        tags: ['templates'],
        params: templateIdParam,
        response: { 204: { type: 'null', description: 'removed' }, 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      if (!(await deps.store.deleteTemplate(request.team.id, request.params.id))) throw notFound(request.params.id);
      return reply.code(204).send();
    },
  );
}
