/**
 * The team dashboard (api.md Part F), served by `imprint serve` itself: `/` leads to it, the
 * page and its fingerprinted files under /dashboard, its JSON under /dashboard/api. A session
 * cookie authorizes these routes only; the bearer API (/api/...) never reads it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import { installedWebAssets } from '../../core/web-assets.js';
import type { AppDeps, DashboardOptions } from '../deps.js';
import { dashboardPage } from './assets.js';
import { dashboardLoginCodeRoutes } from './login-code-routes.js';
import { DEFAULT_SESSION_IDLE_MS } from './session.js';
import { dashboardSessionRoutes } from './session-routes.js';
import { createLoginCodeLimit, createSignInLimit, DEFAULT_SIGN_IN_ATTEMPTS, DEFAULT_SIGN_IN_WINDOW_MS, signInWindowForTests } from './sign-in-limit.js';
import { dashboardTeamRoutes } from './team-routes.js';

export function installDashboard(app: FastifyInstance, deps: AppDeps, options: DashboardOptions = {}): void {
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const publicUrl = options.publicUrl ?? (() => undefined);
  const assets = options.assets ?? installedWebAssets();
  const hidden = { config: { public: true }, schema: { hide: true } } as const;
  const attempts = {
    attempts: options.signInAttempts ?? DEFAULT_SIGN_IN_ATTEMPTS,
    windowMs: options.signInWindowMs ?? signInWindowForTests() ?? DEFAULT_SIGN_IN_WINDOW_MS,
    now: deps.now,
  };
  const signInLimit = createSignInLimit(deps.store.dashboard.signIns, attempts);
  const loginCodeLimit = createLoginCodeLimit(deps.store.dashboard.signIns, attempts);

  app.get('/', hidden, async (_request, reply) => reply.redirect('/dashboard', 302));
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/dashboard/api/')) throw new ImprintError('ROUTE_NOT_FOUND', `The dashboard has no endpoint ${request.method} ${request.url.split('?')[0]}.`);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(dashboardPage(assets));
  };
  app.get('/dashboard', hidden, page);
  // Every page of the app (/dashboard/templates/x, /dashboard/login/CODE...) is the same HTML; the app reads the path.
  app.get('/dashboard/*', hidden, page);
  app.get<{ Params: { name: string } }>('/dashboard/assets/:name', hidden, async (request, reply) => {
    const file = assets.file(request.params.name);
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('No such dashboard file.');
    return reply.type(file.type).header('cache-control', 'public, max-age=31536000, immutable').send(file.body);
  });

  dashboardSessionRoutes(app, deps, { idleMs, publicUrl, signInLimit });
  dashboardTeamRoutes(app, deps, { idleMs, publicUrl });
  dashboardLoginCodeRoutes(app, deps, { idleMs, publicUrl, limit: loginCodeLimit });
}
