/**
 * Bearer authentication (api.md A, Part B): every route needs `Authorization: Bearer <key>`
 * except those marked `config: { public: true }` (/healthz, /api/files/{token}).
 * It runs on onRequest, before the body is read, so a caller without a valid key learns
 * nothing, not even whether its body would have been accepted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store, Team } from '../../core/store/index.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key needed. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The caller's team; set on every non-public route. */
    team: Team;
    /** The id of the caller's API key (recorded as who published a template version). */
    apiKeyId: string;
  }
}

const BEARER = /^Bearer ([^\s]+)$/i;

export function installAuth(app: FastifyInstance, store: Store): void {
  app.decorateRequest('team', null as unknown as Team);
  app.decorateRequest('apiKeyId', '');
  // A refusal is thrown: the error handler answers it (401, WWW-Authenticate: Bearer, the UNAUTHORIZED code).
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config?.public) return;
    const header = request.headers.authorization;
    if (!header) {
      throw unauthorized('Missing API key: send the header "Authorization: Bearer <API_KEY>". The operator of this service creates keys with `imprint key create --team <name>`.');
    }
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('Malformed Authorization header: use "Authorization: Bearer <API_KEY>".');
    const caller = await store.authenticateKey(match[1]);
    if (!caller) throw unauthorized('Unknown or revoked API key. Check the key, or ask the operator of this service for a new one.');
    request.team = caller.team;
    request.apiKeyId = caller.keyId;
  });
}
