/** A2: `POST /api/generate` renders raw HTML, a web page, or HTML injected into a web page. */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { HtmlSource } from '../../core/render/render-html.js';
import type { AppDeps } from '../deps.js';
import type { JsonObject } from '../render-body.js';
import { readRenderBody } from '../render-body.js';
import { documentResponse, outputFields, renderErrorResponses } from '../schemas.js';
import { sendResult } from '../send-result.js';

/**
 * The server renders pages for callers it does not trust, so only http(s) pages: a file: URL
 * would hand out the server's own files.
 */
function readSource(body: JsonObject): HtmlSource {
  const { html, url } = body;
  if (html === undefined && url === undefined) {
    throw new ImprintError('INVALID_INPUT', 'Nothing to render: give "html", "url", or both (api.md A2).');
  }
  if (html !== undefined && typeof html !== 'string') throw new ImprintError('INVALID_INPUT', 'Invalid html: expected a string of HTML.');
  if (url === undefined) return { html: html as string | undefined };
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
    throw new ImprintError('INVALID_INPUT', `Invalid url ${JSON.stringify(url)}: give an absolute http or https address, e.g. https://example.org/page.`);
  }
  return { html: html as string | undefined, url: parsed.href };
}

export function generateRoutes(app: FastifyInstance, deps: AppDeps) {
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
        response: { 200: documentResponse, ...renderErrorResponses },
      },
    },
    async (request, reply) => {
      const { options, fields: source } = readRenderBody(request, readSource);
      const result = await deps.engine.generate(request.team, source, options);
      return sendResult(reply, result, source.url ? new URL(source.url).hostname || 'document' : 'document');
    },
  );
}
