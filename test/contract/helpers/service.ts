/**
 * The service as contract tests meet it: the installed package's `imprint serve` (the package
 * under test, installed outside the checkout) as a child process on 127.0.0.1 port 0, with a
 * real SQLite data folder in a temp dir, its own Chromium, real HTTP through undici. The test
 * sets it up as an operator does: serve's flags (serve-flags.ts), and the operator's store on
 * the same data folder or database for teams, keys and what was counted. Its log is the child's
 * JSON lines, kept so tests can check what the operator sees.
 *
 * With IMPRINT_TEST_BACKEND=postgres-s3 the same service runs on the store a multi-node
 * deployment uses: a throwaway PostgreSQL cluster (a database per service) and an s3rver
 * bucket (a prefix per service), started once per test process (api-postgres-s3.test.ts).
 *
 * A test that must hand the service what no process boundary carries (a DNS table) starts it
 * in its own process instead: in-process-service.ts, which says why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request, type Dispatcher } from 'undici';
import { bundleTemplate } from '../../../src/core/bundle/bundle-template.js';
import { browserEnvironment } from '../../../src/core/browser-env.js';
import { createBrowserProvider } from '../../../src/core/render/browser-provider.js';
import type { Store } from '../../../src/core/store/index.js';
import type { S3ObjectsOptions } from '../../../src/core/store/objects/open-objects.js';
import { openStoreAt } from '../../../src/core/store/open-store.js';
import type { Artifact } from '../../../src/core/artifact.js';
import { INPUTS } from '../../helpers/cli.js';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres.js';
import { startS3, type S3Server } from '../../helpers/s3.js';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process.js';
import { serveFlags, type ServeSettings } from './serve-flags.js';

/** The contract fixtures as a user's files: the copy outside the checkout (helpers/cli.ts INPUTS), which the installed CLI may read. */
export const FIXTURES = path.join(INPUTS, 'test', 'contract', 'fixtures');

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json<T = any>(): T;
  text(): string;
}

/** One log line: the service's JSON (pino) fields. */
export type LogEntry = Record<string, any>;

/** What a test's request carries: a bearer key, and a JSON body or a raw one with its own headers. */
export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * The request's deadline, answer read whole included; undici's own (300 s to the headers, 300 s
   * between body chunks) when absent. A render longer than those (a service started with a long
   * --render-timeout) needs one.
   */
  timeoutMs?: number;
}

export interface TestService {
  url: string;
  /** Where its metrics are scraped, when TestServiceOptions.metrics asks for them. */
  metricsUrl?: string;
  /** The process that serves (its browsers run under it). */
  pid: number;
  dataDir: string;
  /** Where its store is: SQLite and files in the data folder, or PostgreSQL and an S3 bucket. */
  backend: TestBackend;
  /** An operator's connection to the same store (teams, keys, usage; objects through operator.objects). */
  operator: Store;
  /** The names of the service's objects of one kind (artifacts/, files/), whichever the object store. */
  objectNames(kind: 'artifacts' | 'files'): Promise<string[]>;
  /** How the service's messages name an object: its file in the data folder, or its key. */
  objectName(key: string): string;
  /**
   * Its log lines so far, across restarts. call() returns once its request's "request completed"
   * line is here, so a request's lines can be checked as soon as its answer is.
   */
  readonly logs: string[];
  /** Resolves with the first log line `matches` accepts, waiting for it up to `timeoutMs`; fails naming `what`. */
  waitForLog(matches: (entry: LogEntry) => boolean, what: string, timeoutMs?: number): Promise<LogEntry>;
  /** A new team with a key. */
  team(name: string, limit?: number): Promise<{ name: string; key: string; keyId: string }>;
  call(method: string, urlPath: string, options?: CallOptions): Promise<Reply>;
  /** Stops it (SIGTERM, waiting for its exit) and starts it again on the same store. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Where the tests find Chromium: IMPRINT_BROWSER, else the machine's. */
export const CHROMIUM_SEARCH = { explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') };

/** A browser for a test's own process; its environment stripped as the service strips its own. */
export const searchChromium = () =>
  createBrowserProvider({ search: CHROMIUM_SEARCH, runningAsRoot: process.getuid?.() === 0, env: browserEnvironment(process.env) });

export interface TestServiceOptions extends ServeSettings {
  /** Added to the service's environment (it hands its browser the environment, stripped, as `imprint serve` does). */
  env?: Record<string, string | undefined>;
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

export interface Backend {
  databaseUrl?: string;
  storage?: S3ObjectsOptions;
  s3?: S3Server;
  release(): Promise<void>;
}

/** Where the service keeps its store: nothing more than the data folder by default. */
export async function openBackend(backend: TestBackend): Promise<Backend> {
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

/** The names of a service's objects of one kind, in its data folder or under its bucket prefix. */
export async function objectNamesOf(dataDir: string, where: Backend, kind: 'artifacts' | 'files'): Promise<string[]> {
  if (!where.s3 || !where.storage) {
    const folder = path.join(dataDir, kind);
    return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
  }
  const prefix = `${where.storage.prefix}/${kind}/`;
  return (await where.s3.keys(prefix)).map((key) => key.slice(prefix.length));
}

/** How long a request's "request completed" line may take to reach the test after its answer. */
const LOG_WAIT_MS = 10_000;

/** The serve settings a developer's shell may have set (IMPRINT_CONCURRENCY...): not this test's. */
const operatorEnvOff = () =>
  Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => /^IMPRINT_/.test(name) && !/^IMPRINT_(TEST_|BROWSER$)/.test(name))
      .map((name) => [name, undefined]),
  );

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-contract-'));
  const backend = options.backend ?? testBackend();
  const where = await openBackend(backend);
  const { databaseUrl, storage, s3 } = where;
  // The operator's store: the test reads and writes the same SQLite file (or database and bucket) the service uses.
  const operator = await openStoreAt({ dataDir, databaseUrl, storage });
  const args = [
    ...serveFlags(options),
    ...(databaseUrl ? ['--database', databaseUrl] : []),
    ...(storage ? ['--storage', `s3://${storage.bucket}/${storage.prefix}`] : []),
    '--log-level',
    'info',
  ];
  const env = { ...operatorEnvOff(), ...(s3 ? s3.env : {}), ...options.env };

  /** The log lines of the processes stopped by restart(). */
  const earlier: string[] = [];
  const linesOf = (serve: ServeProcess) => {
    const text = serve.stdout();
    // Only whole lines: the last may still be on its way.
    return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((line) => line.startsWith('{'));
  };
  let serve: ServeProcess;
  let metricsUrl: string | undefined;
  const start = async () => {
    serve = await startServeProcess({ dataDir, args, env });
    metricsUrl = /Metrics for Prometheus at (\S+)/.exec(serve.output())?.[1];
  };
  const stop = async () => {
    const code = await serve.stop();
    earlier.push(...linesOf(serve));
    fs.rmSync(serve.tmpDir, { recursive: true, force: true });
    if (code !== 0) throw new Error(`imprint serve ${args.join(' ')} exited ${code} on SIGTERM; its output:\n${serve.output()}`);
  };
  await start();

  const logs = () => [...earlier, ...linesOf(serve)];
  const waitForLog = (matches: (entry: LogEntry) => boolean, what: string, timeoutMs = LOG_WAIT_MS) =>
    new Promise<LogEntry>((resolve, reject) => {
      const child = serve.child;
      const look = () => {
        const found = logs()
          .map((line) => JSON.parse(line) as LogEntry)
          .find(matches);
        if (!found) return false;
        finish();
        resolve(found);
        return true;
      };
      const finish = () => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
      };
      const onData = () => void look();
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what} was not logged within ${timeoutMs} ms; the log:\n${logs().slice(-40).join('\n')}`));
      }, timeoutMs);
      child.stdout!.on('data', onData);
      look();
    });

  return {
    get url() {
      return serve.url;
    },
    get metricsUrl() {
      return metricsUrl;
    },
    get pid() {
      return serve.child.pid!;
    },
    dataDir,
    backend,
    operator,
    objectNames: (kind) => objectNamesOf(dataDir, where, kind),
    objectName: (key) => operator.objects.localPath?.(key) ?? key,
    get logs() {
      return logs();
    },
    waitForLog,
    team: (name, limit) => createTeamKey(operator, name, limit),
    async call(method, urlPath, options = {}) {
      const reply = await sendTo(serve.url, method, urlPath, options);
      // Its log lines are written before this one, so once it is here the request's lines can be checked.
      const id = reply.headers['x-request-id'];
      if (typeof id === 'string') await waitForLog((entry) => entry.reqId === id && entry.msg === 'request completed', `request ${id} (${method} ${urlPath})`);
      return reply;
    },
    async restart() {
      await stop();
      await start();
    },
    async close() {
      try {
        await stop();
      } finally {
        await operator.close();
        await where.release();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Several services started at once. If one fails to start, those that did are stopped before the
 * failure is thrown: the caller never got them, so its after() could not stop them, and a
 * child left running would keep the test process alive.
 */
export async function startTestServices(all: TestServiceOptions[]): Promise<TestService[]> {
  const outcomes = await Promise.allSettled(all.map((options) => startTestService(options)));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (!failed) return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<TestService>).value);
  await Promise.all(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)));
  throw failed.reason;
}

/** One bearer request to a service at `at.url` (a child `imprint serve`), its body as JSON. */
export async function callAt(at: { url: string }, method: 'GET' | 'POST' | 'DELETE', urlPath: string, key: string, body?: unknown): Promise<Reply> {
  const response = await request(`${at.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return replyOf(response);
}

/** An undici answer, read whole: what the tests assert on. */
/** A new team with a key, as the operator's commands make one (TestService.team). */
export async function createTeamKey(operator: Store, name: string, limit?: number): Promise<{ name: string; key: string; keyId: string }> {
  await operator.createTeam(name, limit);
  const { key, keyId } = await operator.createApiKey(name);
  return { name, key, keyId };
}

/** One request to a service at `baseUrl` as TestService.call sends it: a bearer key, a JSON body or a raw one. */
export async function sendTo(baseUrl: string, method: string, urlPath: string, { key, body, rawBody, headers = {}, timeoutMs }: CallOptions = {}): Promise<Reply> {
  const sent: Record<string, string> = { ...headers };
  if (key) sent.authorization = `Bearer ${key}`;
  if (body !== undefined && !sent['content-type']) sent['content-type'] = 'application/json';
  const deadline = timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const response = await request(`${baseUrl}${urlPath}`, {
    method: method as 'GET',
    headers: sent,
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    ...deadline,
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
