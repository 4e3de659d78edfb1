/**
 * The HTTP service as a Fastify app that does not listen (start.ts does), so tests and the
 * serve command build the same thing. Every rule of the contract lives in core; the routes
 * only translate between HTTP and the engine.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installAuth } from './http/auth.js';
import { clientTimeoutOptions, DEFAULT_CLIENT_TIMEOUTS, installIdleTimeout } from './http/client-timeouts.js';
import type { AppDeps } from './deps.js';
import { installDrainGate } from './http/drain-gate.js';
import { installErrorHandling } from './http/errors.js';
import { installJsonBody } from './http/json-body.js';
import { REDACTION } from './http/logger.js';
import { secretRoutes, type SecretRoutes } from './http/log-redaction.js';
import { installMetrics } from './metrics/install.js';
import { installRequestIds, requestIdOf } from './http/request-id.js';
import { documentRoutes } from './routes/documents.js';
import { einvoiceRoutes } from './routes/einvoice.js';
import { fileRoutes } from './routes/files.js';
import { generateRoutes } from './routes/generate.js';
import { healthRoutes } from './routes/health.js';
import { jobRoutes } from './jobs/routes.js';
import { meRoutes } from './routes/me.js';
import { openapiRoutes } from './routes/openapi.js';
import { templateRoutes } from './routes/templates.js';
import { webhookSecretRoutes } from './routes/webhook-secret.js';
import { installDashboard } from './dashboard/index.js';
import { installKeyUse } from './dashboard/key-use.js';
import { installTestKeys } from './dashboard/test-key-hook.js';
import { installSecurityHeaders } from './dashboard/security-headers.js';
import { guideUrl } from '../core/guides.js';

export const API_VERSION = '1.0.0';

/** The request as the log shows it: its URL rebuilt by the route that matched, secrets redacted (log-redaction.ts). */
function withRedaction(logger: AppDeps['logger'], routes: SecretRoutes): AppDeps['logger'] {
  if (!logger || typeof logger !== 'object') return logger ?? false;
  const serializeRequest = (request: FastifyRequest) => ({
    method: request.method,
    url: routes.urlOf(request),
    host: request.hostname,
    remoteAddress: request.ip,
  });
  return { redact: REDACTION, ...logger, serializers: { ...(logger as { serializers?: object }).serializers, req: serializeRequest } } as AppDeps['logger'];
}

export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  // Loaded here, not at the top: every CLI command imports this module, only `serve` needs Fastify.
  const [{ default: Fastify }, { default: swagger }] = await Promise.all([import('fastify'), import('@fastify/swagger')]);
  const routes = secretRoutes();
  const app = Fastify({
    logger: withRedaction(deps.logger, routes),
    bodyLimit: deps.limits.requestBytes,
    // Bodies are checked as sent: "5" is not a number and 5 is not a size string.
    // allowUnionTypes: `deterministic` is a boolean or seconds since 1970; without it Ajv warns on every start.
    ajv: { customOptions: { coerceTypes: false, allowUnionTypes: true } },
    // The caller's x-request-id only when it is a usable one (request-id.ts), else a new one.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Requests that arrive while shutting down are answered by the drain gate (drain-gate.ts),
    // in the service's error shape, instead of Fastify's own 503 body.
    return503OnClosing: false,
    // Only when the operator says a proxy of theirs is in front (--trust-proxy): else anyone could claim https or another address.
    // The proxies the operator named (settings/trust-proxy.ts), never "every hop".
    trustProxy: deps.trustProxy ? [...deps.trustProxy] : false,
    ...clientTimeoutOptions(deps.timeouts ?? DEFAULT_CLIENT_TIMEOUTS),
  });
  // Only JSON bodies (api.md A): without its text/plain parser, Fastify answers 415 for any other type.
  app.removeContentTypeParser('text/plain');
  installJsonBody(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Imprint API',
        version: API_VERSION,
        description: 'Render React/TSX templates, raw HTML and web pages to PDF. Part A (A1-A5) is the fixed contract; the rest is described in externalDocs.',
      },
      externalDocs: { description: 'The API guide: running the service, and the endpoints beyond the contract', url: guideUrl('api') },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'an API key from `imprint key create`' } } },
      security: [{ bearer: [] }],
    },
  });

  // Before any route is added: the secret-bearing ones are known to the log (log-redaction.ts).
  app.addHook('onRoute', (route) => routes.add(route));
  installErrorHandling(app, routes);
  // First of the request hooks: every answer, even one given while shutting down, carries the request's id.
  installRequestIds(app);
  if (deps.metrics) installMetrics(app, deps.metrics);
  // Next: once shutdown has begun, nothing else runs for a new request.
  installDrainGate(app, deps);
  installIdleTimeout(app);
  installAuth(app, deps.store);
  installKeyUse(app, deps.store);
  installTestKeys(app, deps.store);
  installSecurityHeaders(app);

  documentRoutes(app, deps);
  const einvoiceDocument = deps.engine.einvoiceDocument?.bind(deps.engine);
  if (einvoiceDocument) einvoiceRoutes(app, deps, einvoiceDocument);
  generateRoutes(app, deps);
  templateRoutes(app, deps);
  fileRoutes(app, deps);
  meRoutes(app, deps);
  webhookSecretRoutes(app, deps);
  if (deps.jobs) jobRoutes(app, deps.jobs);
  healthRoutes(app, deps);
  openapiRoutes(app);
  if (deps.dashboard) installDashboard(app, deps, deps.dashboard);

  await app.ready();
  return app;
}
