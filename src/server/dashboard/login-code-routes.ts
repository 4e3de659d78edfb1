/**
 * `imprint login --web` (RFC 8628's device flow, as `gh auth login --web` does it): the CLI
 * asks for a code, the person opens /dashboard/login/<code>, signs in if need be and approves;
 * the CLI polls with its own secret and receives a new key of that team, once. Codes live
 * 10 minutes. The approval page names the machine that asked, as the CLI described itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from '../../core/store/crypto.js';
import { ImprintError } from '../../core/errors.js';
import { LOGIN_CODE_PATTERN } from '../../core/store/dashboard/login-code.js';
import type { AppDeps } from '../deps.js';
import { checkCsrf, checkOrigin, requireSession } from './session.js';
import type { AttemptLimit } from './sign-in-limit.js';

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** How often the CLI should poll. */
export const LOGIN_POLL_INTERVAL_S = 2;

export interface LoginCodeRouteOptions {
  idleMs: number;
  publicUrl: () => string | undefined;
  /** Codes that do not exist, counted per session and per address. */
  limit: AttemptLimit;
}

const noCode = (code: string) => new ImprintError('NOT_FOUND', `No login code "${code}": check it against the one your terminal shows, or run \`imprint login --web\` again.`);

export function dashboardLoginCodeRoutes(app: FastifyInstance, deps: AppDeps, options: LoginCodeRouteOptions) {
  const { store } = deps;

  /**
   * Where a signed-in person's code guesses count: their session (its token hashed: the
   * attempts table is no place for a secret) and their address, so neither many sessions from
   * one address nor one session from many addresses guesses without limit.
   */
  const guessKeys = (request: FastifyRequest, token: string) => [`login-code:address:${request.ip}`, `login-code:session:${sha256Hex(token).slice(0, 32)}`];
  async function checkGuesses(keys: string[]): Promise<void> {
    for (const key of keys) await options.limit.check(key);
  }
  async function wrongGuess(keys: string[], code: string): Promise<never> {
    for (const key of keys) await options.limit.failed(key);
    throw noCode(code);
  }
  const hidden = { config: { public: true }, schema: { hide: true } } as const;

  // The CLI: no cookie and no browser, so nothing to forge; what it gets is only a code to show.
  app.post('/dashboard/login-codes', hidden, async (request, reply) => {
    const machine = (request.body as { machine?: unknown } | undefined)?.machine;
    const described = typeof machine === 'string' && machine.trim() ? machine.trim().replace(/[^\x20-\x7e]/g, '?') : 'an unnamed machine';
    const created = await store.dashboard.createLoginCode(described, LOGIN_CODE_TTL_MS);
    const base = options.publicUrl() ?? `${request.protocol}://${request.host}`;
    return reply.code(201).send({
      code: created.code,
      pollToken: created.pollToken,
      expiresAt: created.expiresAt,
      interval: LOGIN_POLL_INTERVAL_S,
      verificationUrl: `${base}/dashboard/login/${created.code}`,
    });
  });

  app.post('/dashboard/login-codes/poll', hidden, async (request) => {
    const pollToken = (request.body as { pollToken?: unknown } | undefined)?.pollToken;
    if (typeof pollToken !== 'string') throw new ImprintError('INVALID_INPUT', 'Invalid body: send { "pollToken": "<the token answered with the code>" }.');
    const claim = await store.dashboard.claimLoginCode(pollToken);
    if (!claim) throw new ImprintError('NOT_FOUND', 'No login code for this poll token: run `imprint login --web` again.');
    if (claim.state !== 'approved') return { status: claim.state };
    return { status: 'approved', team: claim.team, keyId: claim.key.keyId, key: claim.key.key, ...(claim.test ? { test: true } : {}) };
  });

  // The person, signed in: what is asking, then the approval.
  app.get<{ Params: { code: string } }>('/dashboard/api/login-codes/:code', hidden, async (request) => {
    const session = await requireSession(request, store, options.idleMs);
    const keys = guessKeys(request, session.token);
    await checkGuesses(keys);
    const code = request.params.code.toUpperCase();
    const info = LOGIN_CODE_PATTERN.test(code) ? await store.dashboard.getLoginCode(code) : undefined;
    if (!info) return wrongGuess(keys, code);
    return { ...info, team: session.team.name, test: session.test };
  });

  app.post<{ Params: { code: string } }>('/dashboard/api/login-codes/:code/approve', hidden, async (request) => {
    checkOrigin(request, options.publicUrl());
    const session = await requireSession(request, store, options.idleMs);
    checkCsrf(request, session);
    const keys = guessKeys(request, session.token);
    await checkGuesses(keys);
    const code = request.params.code.toUpperCase();
    if (!LOGIN_CODE_PATTERN.test(code)) return wrongGuess(keys, code);
    // Approved in a test key's session, the code gives a test key: the CLI gets no more than the approver had.
    if (!(await store.dashboard.approveLoginCode(code, session.team.id, { test: session.test }))) {
      const info = await store.dashboard.getLoginCode(code);
      if (!info) return wrongGuess(keys, code);
      throw new ImprintError('INVALID_INPUT', `Login code ${code} is ${info.state === 'expired' ? 'expired' : 'already used'}: run \`imprint login --web\` again for a new one.`);
    }
    return { approved: true, team: session.team.name, test: session.test };
  });
}
