/**
 * The dashboard's session: an opaque token in an HttpOnly, SameSite=Strict cookie (Secure when
 * the request came over https), the session itself in the store so any node serves it. Page
 * scripts never see the token or the API key; they get the CSRF token, which they send back
 * in a header with every state-changing request, and those requests must also come from the
 * dashboard's own origin.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { DashboardSession, Store } from '../../core/store/index.js';
import { markTestKey } from '../../core/test-key.js';

export const SESSION_COOKIE = 'imprint_session';
export const CSRF_HEADER = 'x-csrf-token';
export const DASHBOARD_PATH = '/dashboard';
export const DEFAULT_SESSION_IDLE_MS = 12 * 3_600_000;

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** https as the client reached the service: the connection's own, or X-Forwarded-Proto when the operator trusts the proxy (Fastify's trustProxy). */
const overHttps = (request: FastifyRequest) => request.protocol === 'https';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  const flags = [`Path=${DASHBOARD_PATH}`, 'HttpOnly', 'SameSite=Strict', ...(overHttps(request) ? ['Secure'] : [])];
  void reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(token)}; ${flags.join('; ')}`);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const flags = [`Path=${DASHBOARD_PATH}`, 'HttpOnly', 'SameSite=Strict', 'Max-Age=0', ...(overHttps(request) ? ['Secure'] : [])];
  void reply.header('set-cookie', `${SESSION_COOKIE}=; ${flags.join('; ')}`);
}

export const notSignedIn = () => new ImprintError('UNAUTHORIZED', 'Not signed in, or the session ended (signed out, idle too long, or its key was revoked). Sign in again with an API key.');

/**
 * The request's live session, or UNAUTHORIZED. A test key's session has its team object
 * (made for this request by the store) marked as the API marks a test key's
 * (server/dashboard/test-key-hook.ts), so what the engine and the jobs do for it stays in test
 * mode: renders stamped and not counted, test jobs only (core/jobs/jobs.ts).
 */
export async function requireSession(request: FastifyRequest, store: Store, idleMs: number): Promise<DashboardSession & { token: string }> {
  const token = readCookie(request, SESSION_COOKIE);
  const session = token ? await store.dashboard.getSession(token, idleMs) : undefined;
  if (!session || !token) throw notSignedIn();
  if (session.test) markTestKey(session.team);
  return { ...session, token };
}

/** A test key's session may not do what would leave test mode: FORBIDDEN, saying why and what to do instead. */
export function refuseInTestSession(session: DashboardSession, what: string): void {
  if (session.test) {
    throw new ImprintError('FORBIDDEN', `This session was opened with a test key, so it stays in test mode: it cannot ${what}. Sign in with a live key of the team to do that.`);
  }
}

/**
 * A state-changing request must come from a page of this service: the browser's Origin (and,
 * where it sends one, Sec-Fetch-Site) says so, and no other site can forge those. The
 * expected origin is the one the request was addressed to (a proxy passes Host through), or
 * the operator's public URL.
 */
export function checkOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const own = new Set([`${request.protocol}://${request.host}`]);
  if (publicUrl) own.add(new URL(publicUrl).origin);
  if (!origin || !own.has(origin) || (site !== undefined && site !== 'same-origin')) {
    throw new ImprintError('FORBIDDEN', 'This request did not come from the dashboard\'s own page, so nothing was changed. Use the dashboard at its own address.');
  }
}

export function checkCsrf(request: FastifyRequest, session: DashboardSession): void {
  const sent = request.headers[CSRF_HEADER];
  const given = Buffer.from(typeof sent === 'string' ? sent : '');
  const expected = Buffer.from(session.csrf);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ImprintError('FORBIDDEN', 'The request lacks the session\'s CSRF token, so nothing was changed. Reload the dashboard and try again.');
  }
}
