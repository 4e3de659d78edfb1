/** Signing in (an API key for a session cookie), the session as the page may know it, signing out. */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { ImprintError } from '../../core/errors.js';
import { checkCsrf, checkOrigin, clearSessionCookie, readCookie, requireSession, SESSION_COOKIE, setSessionCookie } from './session.js';
import type { AttemptLimit } from './sign-in-limit.js';

export interface SessionRouteOptions {
  idleMs: number;
  publicUrl: () => string | undefined;
  signInLimit: AttemptLimit;
}

export function dashboardSessionRoutes(app: FastifyInstance, deps: AppDeps, options: SessionRouteOptions) {
  const { store } = deps;
  const hidden = { config: { public: true }, schema: { hide: true } } as const;

  app.post('/dashboard/api/session', hidden, async (request, reply) => {
    // A page of another site must not sign the browser in to an account of its choosing.
    checkOrigin(request, options.publicUrl());
    await options.signInLimit.check(request.ip);
    const key = (request.body as { key?: unknown } | undefined)?.key;
    const caller = typeof key === 'string' ? await store.authenticateKey(key.trim()) : undefined;
    if (!caller) {
      await options.signInLimit.failed(request.ip);
      throw new ImprintError('UNAUTHORIZED', 'That API key is not valid here: check it was copied whole (it starts with imp_), or ask whoever runs this service for a new one.');
    }
    const previous = readCookie(request, SESSION_COOKIE);
    if (previous) await store.dashboard.endSession(previous);
    const { token, csrf } = await store.dashboard.createSession(caller.team.id, caller.keyId);
    setSessionCookie(request, reply, token);
    // The session's mode is its key's (the store reads it with the session on every request).
    const test = await store.dashboard.isTestKey(caller.keyId);
    return { team: { name: caller.team.name, generationLimit: caller.team.generationLimit }, keyId: caller.keyId, test, csrf };
  });

  app.get('/dashboard/api/session', hidden, async (request) => {
    const session = await requireSession(request, store, options.idleMs);
    return { team: { name: session.team.name, generationLimit: session.team.generationLimit }, keyId: session.keyId, test: session.test, csrf: session.csrf };
  });

  app.delete('/dashboard/api/session', hidden, async (request, reply) => {
    checkOrigin(request, options.publicUrl());
    const session = await requireSession(request, store, options.idleMs);
    checkCsrf(request, session);
    await store.dashboard.endSession(session.token);
    clearSessionCookie(request, reply);
    return { signedOut: true };
  });
}
