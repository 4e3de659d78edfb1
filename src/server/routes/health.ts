/**
 * Part C: `GET /healthz`, for load balancers and orchestrators: the service answers, its data
 * folder has room to store what renders and publishes write, its object storage (the data
 * folder, or an S3 bucket) can be reached, and its browser is up (launched on first ask, so a
 * ready answer means a render can start now).
 *
 * While the service shuts down (SIGTERM: app.close() lets the requests in progress finish) no
 * new connection is accepted, so /healthz asked the usual way fails, which is the truth. A
 * request can still arrive on a connection that is already open (its head was in transit at
 * the signal, or it is pipelined behind one in progress): it is not served but answered 503,
 * /healthz with status "unavailable" and service "draining" (src/server/http/drain-gate.ts).
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { formatBytes } from '../../core/limits/format-bytes.js';
import type { AppDeps } from '../deps.js';

export const HEALTH_PATH = '/healthz';

/**
 * Below this much free space in the data folder the service reports itself unavailable: the
 * usage count, a `json` result's PDF and a published template would soon no longer fit, and
 * every such request would answer 507.
 */
export const STORAGE_FLOOR_BYTES = 1024 * 1024;

const healthSchema = {
  type: 'object',
  required: ['status', 'service', 'browser'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    service: { type: 'string', description: '"ok"; "draining" while it shuts down; "disk full: <free> free" when its data folder has no room left' },
    browser: { type: 'string', description: '"ok", or why the browser is not ready' },
    storage: { type: 'string', description: '"ok", or "unreachable" when the object storage (S3) cannot be reached' },
    version: { type: 'string' },
    error: { type: 'string', description: 'present when status is unavailable' },
  },
} as const;

/** Longest the object storage may take to answer: a load balancer's probe must not hang on it. */
export const STORAGE_CHECK_TIMEOUT_MS = 5_000;

/** Resolves when the object storage answers, rejects when it fails or is silent past the bound. */
async function checkStorage(deps: AppDeps): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${deps.store.objects.location} did not answer within ${STORAGE_CHECK_TIMEOUT_MS / 1000} s`)), STORAGE_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([deps.store.objects.check(), silent]);
  } finally {
    clearTimeout(timer);
  }
}

/** Free bytes for an unprivileged writer in the file system holding `dir`. */
function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

export function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    HEALTH_PATH,
    {
      config: { public: true },
      schema: {
        summary: 'Liveness and readiness of the service and its browser (no key needed)',
        tags: ['service'],
        security: [],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const free = freeBytes(deps.store.dataDir);
      const service = free < STORAGE_FLOOR_BYTES ? `disk full: ${formatBytes(free)} free` : 'ok';
      let storage = 'ok';
      let browser = 'ok';
      const storageChecked = checkStorage(deps).catch((error: unknown) => {
        request.log.error({ err: error }, 'health check: the object storage cannot be reached');
        storage = 'unreachable';
      });
      try {
        const running = await deps.browsers.browser();
        if (!running.connected) throw new Error('the browser is not connected');
      } catch (error) {
        request.log.error({ err: error }, 'health check: browser not ready');
        // Without its final period: the sentence below that names it ends with its own.
        browser = `not ready: ${(error as Error).message.split('\n')[0].replace(/\.$/, '')}`;
      }
      await storageChecked;
      if (service === 'ok' && browser === 'ok' && storage === 'ok') return { status: 'ok', service, browser, storage, version: deps.version };
      const problems = [
        ...(service === 'ok' ? [] : [`The disk holding the service's data folder is full (${formatBytes(free)} free): renders (their usage count, a json result's PDF) and publishing fail until its operator frees space.`]),
        ...(storage === 'ok' ? [] : ["The service's object storage cannot be reached: publishing, renders of templates it has not loaded yet, json results and downloads answer 503 until it is back."]),
        ...(browser === 'ok' ? [] : [`The service's browser is ${browser}.`]),
      ];
      if (service !== 'ok') request.log.error({ freeBytes: free, dataDir: deps.store.dataDir }, 'health check: the data folder is out of space');
      return reply.code(503).send({ status: 'unavailable', service, browser, storage, version: deps.version, error: problems.join(' ') });
    },
  );
}
