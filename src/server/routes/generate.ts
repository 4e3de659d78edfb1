/** A2: `POST /api/generate` renders raw HTML, a web page, or HTML injected into a web page. */
import type { FastifyInstance } from 'fastify';
import { parseHtmlSourceFields } from '../../core/html-source.js';
import type { HtmlSource } from '../../core/render/render-html.js';
import { checkRenderUrl, serviceUrlAccess, type UrlAccess } from '../../core/url-access.js';
import type { AppDeps } from '../deps.js';
import { storageFullResponse, storageUnavailableResponse } from '../http/errors.js';
import type { JsonObject } from '../http/render-body.js';
import { readRenderBody } from '../http/render-body.js';
import { documentResponse, outputFields, renderErrorResponses, urlDeniedResponse } from '../http/schemas.js';
import { sendResult } from '../http/send-result.js';

/** The body's html and url (their shape by core/html-source.ts), the url judged by the operator's network policy (core/url-access.ts). */
async function readSource(body: JsonObject, access: UrlAccess): Promise<HtmlSource> {
  const { html, url } = parseHtmlSourceFields(body);
  if (url === undefined) return { html };
  return { html, url: await checkRenderUrl(url, access) };
}

export function generateRoutes(app: FastifyInstance, deps: AppDeps) {
  const access = serviceUrlAccess(deps.netPolicy, deps.resolve);
  app.post(
    '/api/generate',
    {
      attachValidation: true,
      bodyLimit: deps.limits.requestBytes,
      schema: {
        summary: 'Render raw HTML and/or a web page (api.md A2)',
        description: 'At least one of html and url. Both: the page at url is loaded and its content replaced by html, so relative links in html resolve against url.',
        tags: ['contract'],
        body: {
          type: 'object',
          properties: {
            html: { type: 'string', description: 'HTML to convert; or, with url, HTML injected into the page at url' },
            url: { type: 'string', format: 'uri', description: 'the page to convert; or, with html, the base page the HTML is injected into' },
            ...outputFields,
          },
        },
        response: { 200: documentResponse, ...renderErrorResponses, 403: urlDeniedResponse, ...storageFullResponse, ...storageUnavailableResponse },
      },
    },
    async (request, reply) => {
      // Before any browser work: a refused url costs no page, no queue slot and no generation.
      const { options, fields: source } = await readRenderBody(request, (body) => readSource(body, access));
      const result = await deps.engine.generate(request.team, source, options);
      return sendResult(reply, result, source.url ? new URL(source.url).hostname || 'document' : 'document');
    },
  );
}
