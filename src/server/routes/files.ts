/**
 * Part C: `GET /api/files/{token}` downloads a PDF issued for a `format: json` result. The
 * token is the capability, so no API key; an unknown and an expired token answer alike. The
 * PDF is streamed from the object store (the data folder, or S3: 503 while it is unreachable).
 */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { AppDeps } from '../deps.js';
import { storageUnavailableResponse } from '../http/errors.js';
import { errorSchema } from '../http/schemas.js';
import { FILES_PATH } from '../urls.js';

export function fileRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { token: string } }>(
    `${FILES_PATH}:token`,
    {
      // The token is the capability: never logged (log-redaction.ts).
      config: { public: true, secretParams: ['token'] },
      schema: {
        summary: 'Download a PDF issued by a `json` result (no API key: the token is the capability)',
        tags: ['files'],
        security: [],
        params: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
        response: {
          200: { description: 'the PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          404: { ...errorSchema, description: 'unknown or expired' },
          ...storageUnavailableResponse,
        },
      },
    },
    async (request, reply) => {
      const file = await deps.store.openIssuedFile(request.params.token);
      if (!file) {
        throw new ImprintError('NOT_FOUND', 'This download link is unknown or has expired. Render the document again for a new link.');
      }
      // Opened before any header is set: a failure here is answered as an error of its own.
      const pdf = await file.open();
      return reply
        .type('application/pdf')
        .header('Content-Length', file.bytes)
        .header('Cache-Control', 'private, no-store')
        .header('Expires', new Date(file.expiresAt).toUTCString())
        .send(pdf);
    },
  );
}
