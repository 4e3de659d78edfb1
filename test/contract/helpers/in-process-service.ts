/**
 * The service started inside the test's own process, from the checkout's source (startServer),
 * for the one thing a child `imprint serve` cannot be handed: a DNS table. The url check
 * resolves names with the operating system's resolver, which a test cannot point at names of
 * its own (no hosts file or DNS server of the test's reaches a child) without root; and names
 * that resolve to private addresses (canary.test -> 127.0.0.1, a public and a loopback address
 * for one name) are what the refusals under test are about. Everything else runs the installed
 * package (service.ts); only tests that need `resolve` come here, and each says so (today
 * security-url.test.ts's default block, alone).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createNetPolicy } from '../../../src/core/net/address-policy.js';
import type { Resolver } from '../../../src/core/net/resolver.js';
import type { BrowserPool } from '../../../src/core/render/pool.js';
import { openStoreAt } from '../../../src/core/store/open-store.js';
import { startServer, type RunningServer } from '../../../src/server/start.js';
import { CHROMIUM_SEARCH, objectNamesOf, openBackend, searchChromium, sendTo, createTeamKey, testBackend, type LogEntry, type TestService, type TestServiceOptions } from './service.js';

export interface InProcessServiceOptions extends Omit<TestServiceOptions, 'env'> {
  /** The DNS table for the url check, instead of the system's: why this service is in process. */
  resolve?: Resolver;
  /** A browser shared by several services of one file; the caller closes it. */
  browsers?: BrowserPool;
}

export async function startInProcessService(options: InProcessServiceOptions): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-contract-'));
  const ownsBrowsers = options.browsers === undefined;
  const browsers = options.browsers ?? searchChromium();
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  const backend = options.backend ?? testBackend();
  const where = await openBackend(backend);
  const { databaseUrl, storage } = where;
  const operator = await openStoreAt({ dataDir, databaseUrl, storage });
  const start = () =>
    startServer(
      {
        dataDir,
        databaseUrl,
        storage,
        port: 0,
        host: '127.0.0.1',
        urlTtlMs: options.urlTtlMs ?? 24 * 3_600_000,
        renderTimeoutMs: options.renderTimeoutMs ?? 30_000,
        version: 'test',
        browser: { search: CHROMIUM_SEARCH, env: {}, runningAsRoot: process.getuid?.() === 0 },
        logger: { level: 'info', stream },
        netPolicy: createNetPolicy(options.net),
        renderLimits: options.renderLimits,
        limits: options.limits,
        timeouts: options.timeouts,
        pool: options.pool,
        metrics: options.metrics,
        webhooks: options.webhooks,
      },
      { browsers, resolve: options.resolve },
    );
  let server: RunningServer = await start();

  // The logger writes synchronously to `stream`: a line is here before the answer is sent.
  const waitForLog = async (matches: (entry: LogEntry) => boolean, what: string) => {
    const found = logs.map((line) => JSON.parse(line) as LogEntry).find(matches);
    if (!found) throw new Error(`${what} was not logged; the log:\n${logs.slice(-40).join('\n')}`);
    return found;
  };

  return {
    get url() {
      return server.url;
    },
    get metricsUrl() {
      return server.metricsUrl;
    },
    pid: process.pid,
    dataDir,
    backend,
    operator,
    objectNames: (kind) => objectNamesOf(dataDir, where, kind),
    objectName: (key) => operator.objects.localPath?.(key) ?? key,
    logs,
    waitForLog,
    team: (name, limit) => createTeamKey(operator, name, limit),
    call: (method, urlPath, callOptions) => sendTo(server.url, method, urlPath, callOptions),
    async restart() {
      await server.close();
      server = await start();
    },
    async close() {
      await server.close();
      await operator.close();
      if (ownsBrowsers) await browsers.close();
      await where.release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
