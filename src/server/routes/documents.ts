/** A1: `POST /api/documents/{documentId}` renders a published template of the caller's team. */
import type { FastifyInstance } from 'fastify';
import { parseProps } from '../../core/render-request.js';
import { parseTemplateVersion } from '../../core/template-version.js';
import type { AppDeps } from '../deps.js';
import { storageFullResponse, storageUnavailableResponse } from '../http/errors.js';
import { readRenderBody } from '../http/render-body.js';
import { documentResponse, notFoundResponse, outputFields, renderErrorResponses } from '../http/schemas.js';
import { sendResult } from '../http/send-result.js';

export function documentRoutes(app: FastifyInstance, deps: AppDeps) {
  app.post<{ Params: { documentId: string } }>(
    '/api/documents/:documentId',
    {
      attachValidation: true,
      bodyLimit: deps.limits.requestBytes,
      schema: {
        summary: 'Render a published template (api.md A1)',
        tags: ['contract'],
        params: {
          type: 'object',
          required: ['documentId'],
          properties: { documentId: { type: 'string', description: "the template's UUID or its custom id" } },
        },
        body: {
          type: 'object',
          required: ['props'],
          properties: {
            props: { type: 'object', additionalProperties: true, description: "passed to the template's document component" },
            ...outputFields,
            version: { type: 'integer', minimum: 1, description: 'api.md Part E: render this version of the template instead of the latest; an unknown one is a 404 listing those there are' },
          },
        },
        response: { 200: documentResponse, ...renderErrorResponses, 404: notFoundResponse, ...storageFullResponse, ...storageUnavailableResponse },
      },
    },
    async (request, reply) => {
      const { options, fields } = await readRenderBody(request, (body) => ({
        props: parseProps(body.props),
        version: body.version === undefined ? undefined : parseTemplateVersion(body.version),
      }));
      const { result } = await deps.engine.renderDocument(request.team, request.params.documentId, fields.props, options, fields.version);
      return sendResult(reply, result, request.params.documentId);
    },
  );
}
