/**
 * Where the service meets test keys (core/test-key.ts): a request made with one has its team
 * object marked, so the engine stamps and does not count what it renders, and the answer says
 * so in a header. Whether a key is a test key never changes, so each node asks the store once
 * per key. A job submitted with one is a test job (core/jobs): its rows are stamped and it
 * takes no units; its submit and status answers carry the header like any test-key request.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../core/store/index.js';
import { markTestKey } from '../../core/test-key.js';

export const TEST_KEY_HEADER = 'imprint-test-key';

export function installTestKeys(app: FastifyInstance, store: Store): void {
  const known = new Map<string, boolean>();
  app.addHook('onRequest', async (request, reply) => {
    const keyId = request.apiKeyId;
    if (!keyId) return;
    let test = known.get(keyId);
    if (test === undefined) {
      test = await store.dashboard.isTestKey(keyId);
      if (known.size > 100_000) known.clear();
      known.set(keyId, test);
    }
    if (!test) return;
    markTestKey(request.team);
    void reply.header(TEST_KEY_HEADER, 'stamped; not counted');
  });
}
