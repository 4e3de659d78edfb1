/**
 * Records when each API key was last used (the dashboard's keys page shows it). At most one
 * write per key per minute from this node, and never in the way of the request: a failed
 * write is logged, the request goes on.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../core/store/index.js';

const EVERY_MS = 60_000;

export function installKeyUse(app: FastifyInstance, store: Store): void {
  const written = new Map<string, number>();
  app.addHook('onRequest', async (request) => {
    const keyId = request.apiKeyId;
    if (!keyId) return;
    const now = Date.now();
    if (now - (written.get(keyId) ?? 0) < EVERY_MS) return;
    if (written.size > 100_000) written.clear();
    written.set(keyId, now);
    store.dashboard.touchKey(keyId).catch((error: unknown) => request.log.warn({ err: error }, "recording the API key's last use failed"));
  });
}
