/**
 * `POST /api/documents/{documentId}/einvoice`: a published template's e-invoice as XML (CII or
 * UBL, any Factur-X profile or XRechnung), from its `einvoice` mapping; nothing is printed.
 * An extension (docs/einvoice.md, docs/api.md); the XML equals what a Factur-X render embeds.
 */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import { EINVOICE_PROFILES, EINVOICE_SYNTAXES } from '../../core/einvoice/model.js';
import { parseEInvoiceProfile, parseEInvoiceSyntax } from '../../core/einvoice/profiles.js';
import { parseProps } from '../../core/render-request.js';
import { parseTemplateVersion } from '../../core/template-version.js';
import type { AppDeps } from '../deps.js';
import { describeValidation } from '../http/errors.js';
import { notFoundResponse, renderErrorResponses } from '../http/schemas.js';
import { guideUrl } from '../../core/guides.js';

export function einvoiceRoutes(app: FastifyInstance, deps: AppDeps, einvoiceDocument: NonNullable<AppDeps['engine']['einvoiceDocument']>) {
  app.post<{ Params: { documentId: string }; Body: Record<string, unknown> }>(
    '/api/documents/:documentId/einvoice',
    {
      attachValidation: true,
      bodyLimit: deps.limits.requestBytes,
      schema: {
        summary: "A published template's e-invoice XML (an extension)",
        externalDocs: { description: 'E-invoices', url: guideUrl('einvoice') },
        tags: ['templates'],
        params: { type: 'object', required: ['documentId'], properties: { documentId: { type: 'string', description: "the template's UUID or its custom id" } } },
        body: {
          type: 'object',
          required: ['props'],
          properties: {
            props: { type: 'object', additionalProperties: true, description: "passed to the template's `einvoice` mapping" },
            syntax: { type: 'string', enum: [...EINVOICE_SYNTAXES], description: 'cii (default; what Factur-X embeds) or ubl (Peppol BIS Billing 3.0, or XRechnung UBL)' },
            profile: { type: 'string', enum: [...EINVOICE_PROFILES], description: 'default en16931; xrechnung gives XRechnung' },
            version: { type: 'integer', minimum: 1, description: 'this version of the template instead of the latest' },
          },
        },
        response: {
          200: { description: 'The invoice XML.', content: { 'application/xml': { schema: { type: 'string' } } } },
          ...renderErrorResponses,
          404: notFoundResponse,
        },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ImprintError('INVALID_INPUT', 'Invalid body: send a JSON object, e.g. {"props": {...}, "syntax": "cii"}.');
      const fields = body as Record<string, unknown>;
      const props = parseProps(fields.props);
      const syntax = fields.syntax === undefined ? 'cii' : parseEInvoiceSyntax(fields.syntax);
      const profile = fields.profile === undefined ? 'en16931' : parseEInvoiceProfile(fields.profile);
      const version = fields.version === undefined ? undefined : parseTemplateVersion(fields.version);
      const schemaError = (request as { validationError?: Parameters<typeof describeValidation>[0] }).validationError;
      if (schemaError) throw new ImprintError('INVALID_INPUT', describeValidation(schemaError));
      const { xml } = await einvoiceDocument(request.team, request.params.documentId, props, { syntax, profile }, version);
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );
}
