/**
 * The service as contract tests meet it: the real app listening on 127.0.0.1 port 0, a real
 * SQLite data folder in a temp dir, a real Chromium, real HTTP through undici. One browser
 * serves every test of a file. The clock can be moved forward (download expiry) without
 * sleeping; the log is kept so tests can check what the operator sees.
 *
 * With IMPRINT_TEST_BACKEND=postgres-s3 the same service runs on the store a multi-node
 * deployment uses: a throwaway PostgreSQL cluster (a database per service) and an s3rver
 * bucket (a prefix per service), started once per test process (api-postgres-s3.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { bundleTemplate } from '../../../src/core/bundle/bundle-template.js';
import { browserEnvironment } from '../../../src/core/browser-env.js';
import type { RenderLimits } from '../../../src/core/limits/render-limits.js';
import { createNetPolicy, type NetPolicyOptions } from '../../../src/core/net/address-policy.js';
import type { Resolver } from '../../../src/core/net/resolver.js';
import { createBrowserProvider } from '../../../src/core/render/browser-provider.js';
import type { BrowserPool } from '../../../src/core/render/pool.js';
import type { Store } from '../../../src/core/store/index.js';
import type { S3ObjectsOptions } from '../../../src/core/store/objects/open-objects.js';
import { openStoreAt } from '../../../src/core/store/open-store.js';
import type { ClientTimeouts } from '../../../src/server/client-timeouts.js';
import type { BodyLimits } from '../../../src/server/deps.js';
import { startServer, type RunningServer } from '../../../src/server/start.js';
import type { ServeConfig } from '../../../src/server/serve-config.js';
import type { MetricsConfig } from '../../../src/server/metrics/service-metrics.js';
import type { Artifact } from '../../../src/core/artifact.js';
import { INPUTS } from '../../helpers/cli.js';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres.js';
import { startS3, type S3Server } from '../../helpers/s3.js';

/** The contract fixtures as a user's files: the copy outside the checkout (helpers/cli.ts INPUTS), which the installed CLI may read. */
export const FIXTURES = path.join(INPUTS, 'test', 'contract', 'fixtures');

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json<T = any>(): T;
  text(): string;
}

export interface TestService {
  url: string;
  /** Where its metrics are scraped, when TestServiceOptions.metrics asks for them. */
  metricsUrl?: string;
  dataDir: string;
  /** Where its store is: SQLite and files in the data folder, or PostgreSQL and an S3 bucket. */
  backend: TestBackend;
  /** An operator's connection to the same store (teams, keys, usage; objects through operator.objects). */
  operator: Store;
  /** The names of the service's objects of one kind (artifacts/, files/), whichever the object store. */
  objectNames(kind: 'artifacts' | 'files'): Promise<string[]>;
  /** How the service's messages name an object: its file in the data folder, or its key. */
  objectName(key: string): string;
  logs: string[];
  /** Moves the service's clock forward. */
  advanceClock(ms: number): void;
  /** A new team with a key. */
  team(name: string, limit?: number): Promise<{ name: string; key: string; keyId: string }>;
  call(method: string, urlPath: string, options?: { key?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> }): Promise<Reply>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Where the tests find Chromium: IMPRINT_BROWSER, else the machine's. */
export const CHROMIUM_SEARCH = { explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') };

/** A browser for a test file; its environment stripped as the service strips its own. */
export const searchChromium = () =>
  createBrowserProvider({ search: CHROMIUM_SEARCH, runningAsRoot: process.getuid?.() === 0, env: browserEnvironment(process.env) });

export interface TestServiceOptions {
  renderTimeoutMs?: number;
  urlTtlMs?: number;
  /** The operator's network settings (--allow-host, --allow-private); public only by default. */
  net?: NetPolicyOptions;
  renderLimits?: RenderLimits;
  limits?: BodyLimits;
  timeouts?: ClientTimeouts;
  /** A DNS table for the url check instead of the system's. */
  resolve?: Resolver;
  /** A browser shared by several services of one file; the caller closes it. */
  browsers?: BrowserPool;
  /**
   * The service launches and owns its browser, handed this environment as `imprint serve`
   * hands it the process's (the server strips it). Instead of `browsers`.
   */
  ownBrowser?: { env: Record<string, string | undefined> };
  /** The render slots and queue of a browser the service owns (ownBrowser). */
  pool?: ServeConfig['pool'];
  /** Prometheus metrics, as `imprint serve --metrics-port` and friends set them. */
  metrics?: MetricsConfig;
  /** Job webhooks' retry base and attempt timeout (a small base shortens the retry schedule). */
  webhooks?: ServeConfig['webhooks'];
  /** The store to run on; this process's (IMPRINT_TEST_BACKEND) when absent. */
  backend?: TestBackend;
}

export type TestBackend = 'sqlite' | 'postgres-s3';

/** The backend of this test process (IMPRINT_TEST_BACKEND), the default when unset. */
export function testBackend(): TestBackend {
  const backend = process.env.IMPRINT_TEST_BACKEND || 'sqlite';
  if (backend !== 'sqlite' && backend !== 'postgres-s3') throw new Error(`IMPRINT_TEST_BACKEND=${backend}: use sqlite or postgres-s3.`);
  return backend;
}

/** One PostgreSQL cluster and one S3 server for every service of the process, stopped with the last. */
let shared: Promise<{ cluster: PostgresCluster; s3: S3Server }> | undefined;
let sharedUsers = 0;
let services = 0;

async function acquireShared() {
  sharedUsers++;
  shared ??= Promise.all([startPostgres(), startS3()]).then(([cluster, s3]) => ({ cluster, s3 }));
  return shared;
}

async function releaseShared() {
  if (--sharedUsers > 0 || !shared) return;
  const { cluster, s3 } = await shared;
  shared = undefined;
  await Promise.all([cluster.stop(), s3.remove()]);
}

/** Where the service keeps its store: nothing more than the data folder by default. */
async function openBackend(backend: TestBackend): Promise<{ databaseUrl?: string; storage?: S3ObjectsOptions; s3?: S3Server; release(): Promise<void> }> {
  if (backend === 'sqlite') return { release: async () => {} };
  const { cluster, s3 } = await acquireShared();
  const databaseUrl = await cluster.createDatabase();
  return {
    databaseUrl,
    storage: s3.options(`service-${process.pid}-${++services}`),
    s3,
    release: async () => {
      await cluster.dropDatabase(databaseUrl);
      await releaseShared();
    },
  };
}

/** An undici answer, read whole: what the tests assert on. */
/** One bearer request to a service at `at.url` (a child `imprint serve`), its body as JSON. */
export async function callAt(at: { url: string }, method: 'GET' | 'POST' | 'DELETE', urlPath: string, key: string, body?: unknown): Promise<Reply> {
  const response = await request(`${at.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return replyOf(response);
}

export async function replyOf(response: Dispatcher.ResponseData): Promise<Reply> {
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers,
    body: bytes,
    json: () => JSON.parse(bytes.toString('utf8')),
    text: () => bytes.toString('utf8'),
  };
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-contract-'));
  const ownsBrowsers = options.browsers === undefined && options.ownBrowser === undefined;
  // With ownBrowser the server launches its own (closed with the server).
  const browsers: BrowserPool | undefined = options.ownBrowser ? undefined : (options.browsers ?? searchChromium());
  let skewMs = 0;
  const now = () => new Date(Date.now() + skewMs);
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
  const operator = await openStoreAt({ dataDir, databaseUrl, storage, now });
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
        browser: { search: CHROMIUM_SEARCH, env: options.ownBrowser?.env ?? {}, runningAsRoot: process.getuid?.() === 0 },
        logger: { level: 'info', stream },
        netPolicy: createNetPolicy(options.net),
        renderLimits: options.renderLimits,
        limits: options.limits,
        timeouts: options.timeouts,
        pool: options.pool,
        metrics: options.metrics,
        webhooks: options.webhooks,
      },
      { browsers, now, resolve: options.resolve },
    );
  let server: RunningServer = await start();

  return {
    get url() {
      return server.url;
    },
    get metricsUrl() {
      return server.metricsUrl;
    },
    dataDir,
    backend,
    operator,
    async objectNames(kind) {
      if (!where.s3 || !storage) return fs.readdirSync(path.join(dataDir, kind));
      const prefix = `${storage.prefix}/${kind}/`;
      return (await where.s3.keys(prefix)).map((key) => key.slice(prefix.length));
    },
    objectName: (key) => operator.objects.localPath?.(key) ?? key,
    logs,
    advanceClock: (ms) => void (skewMs += ms),
    async team(name, limit) {
      await operator.createTeam(name, limit);
      const { key, keyId } = await operator.createApiKey(name);
      return { name, key, keyId };
    },
    async call(method, urlPath, { key, body, rawBody, headers = {} } = {}) {
      const sent: Record<string, string> = { ...headers };
      if (key) sent.authorization = `Bearer ${key}`;
      if (body !== undefined && !sent['content-type']) sent['content-type'] = 'application/json';
      const response = await request(`${server.url}${urlPath}`, {
        method: method as 'GET',
        headers: sent,
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      return replyOf(response);
    },
    async restart() {
      await server.close();
      server = await start();
    },
    async close() {
      await server.close();
      await operator.close();
      if (ownsBrowsers) await browsers?.close();
      await where.release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const bundles = new Map<string, Promise<Artifact>>();

/** A fixture template bundled once per test file, as `imprint publish` would. */
export function fixtureArtifact(file: string): Promise<Artifact> {
  let bundled = bundles.get(file);
  if (!bundled) {
    bundled = bundleTemplate(path.join(FIXTURES, file)).then((b) => b.artifact);
    bundles.set(file, bundled);
  }
  return bundled;
}

/** Fails with the service's answer in the message, so a failing test shows what came back. */
export function describeReply(reply: Reply): string {
  const type = String(reply.headers['content-type'] ?? '');
  return `HTTP ${reply.status} ${type}: ${type.includes('json') ? reply.text().slice(0, 500) : `${reply.body.length} bytes`}`;
}
