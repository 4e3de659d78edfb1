/**
 * Runs the service: opens the data folder, builds the engine and the app, listens, and purges
 * expired downloads in the background. `close()` shuts down in order: stop accepting and let
 * requests in progress finish, then the browser, then the database. Signal handling is the
 * caller's (signals.ts), so tests can start and stop servers in one process.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { browserEnvironment } from '../core/browser-env.js';
import { ImprintError } from '../core/errors.js';
import { allowListOnly, type NetPolicy } from '../core/net/address-policy.js';
import { createDestinationCheck } from '../core/net/destination-check.js';
import { lazyEgressProxy } from '../core/net/lazy-egress-proxy.js';
import { templateNetwork } from '../core/net/template-network.js';
import type { Resolver } from '../core/net/resolver.js';
import { createPartFetcher } from '../core/pdf/merge/fetch-part.js';
import { serviceUrlAccess } from '../core/url-access.js';
import { createBrowserProvider } from '../core/render/browser-provider.js';
import type { BrowserPool } from '../core/render/pool.js';
import { openStoreAt } from '../core/store/open-store.js';
import type { Clock } from '../core/store/time.js';
import { createApp } from './app.js';
import { withDailyUsage } from './dashboard/daily-usage.js';
import { startPurging } from './purge.js';
import { resolveServeConfig, type ResolvedServeConfig, type ServeConfig } from './settings/serve-config.js';
import { createServerEngine } from './server-engine.js';
import { teamSigningKeys } from '../core/pdf/sign/team-key.js';
import { policedTsaFetch } from '../core/pdf/sign/tsa-fetch.js';
import { createJobsRuntime, type JobsRuntime } from './jobs/runtime.js';
import { jobWebhooks } from './jobs/webhooks.js';
import { serviceMetrics } from './metrics/service-metrics.js';
import { hangIfAsked } from './test-hang.js';
import { serviceUrls } from './urls.js';

export interface ServeOverrides {
  /** A browser pool shared with the caller (tests); the server then leaves it open on close. */
  browsers?: BrowserPool;
  now?: Clock;
  /** Name resolution for the url check (tests hand in a table instead of DNS). */
  resolve?: Resolver;
}

export interface RunningServer {
  /** Where the service listens, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The base of download URLs. */
  publicUrl: string;
  /**
   * Every setting the service runs with, defaults applied. Its pool is the slots and queue
   * length as configured (those of a handed-in browser are its own).
   */
  config: ResolvedServeConfig;
  app: FastifyInstance;
  /** Where Prometheus scrapes, when a metrics port is configured. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** A wildcard host is no address a client can use; point at loopback and let --public-url say better. */
function listeningUrl(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${address.family === 'IPv6' || host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ port, host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE' ? 'the port is already in use' : code === 'EACCES' ? 'permission denied' : code === 'EADDRNOTAVAIL' ? 'this machine has no such address' : undefined;
    if (!why) throw error;
    throw new ImprintError('USAGE', `Cannot listen on ${host}:${port}: ${why}. Choose another --port or --host.`, { cause: error });
  }
}

export async function startServer(given: ServeConfig, overrides: ServeOverrides = {}): Promise<RunningServer> {
  // Checked before anything opens: a bad setting from a caller other than the CLI fails here.
  const config = resolveServeConfig(given);
  const { pool, netPolicy } = config;
  const now = overrides.now ?? (() => new Date());
  const metrics = serviceMetrics(config.metrics);
  // Said in the log once it exists: the data folder was an older Imprint's and was made private.
  const notices: string[] = [];
  const opened = await openStoreAt({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    storage: config.storage,
    reservationLeaseMs: config.reservationLeaseMs,
    now,
    onNotice: (message) => notices.push(message),
  });
  const measured = metrics ? metrics.store(opened) : opened;
  // The dashboard's chart of documents per day (dashboard/daily-usage.ts).
  const store = withDailyUsage(measured, now, (error) => app?.log.warn({ err: error }, "counting the day's documents for the dashboard failed"));
  // A pool handed in (a test's shared browser) is the caller's to close, so the engine,
  // whose close() closes its pool, is then not closed by this server.
  const ownsBrowsers = overrides.browsers === undefined;
  let app: FastifyInstance | undefined;
  // Every request of the service's own browsers (sub-resources, frames, fetch, WebSockets,
  // redirects) goes through an egress proxy, which resolves, checks and connects to the
  // checked address. Two policies: raw HTML and web pages (generate) reach what the operator's
  // policy allows; published templates only the operator's allow-list, so by default nothing
  // (their HTTP requests are refused in the page already; this closes WebSockets and WebRTC's
  // TURN too). A browser handed in by a test is the test's business.
  const egressFor = (policy: NetPolicy, audience: string) =>
    lazyEgressProxy({
      check: createDestinationCheck(policy, overrides.resolve),
      onDenied: (denial) => app?.log.info({ egress: denial, audience }, 'egress denied'),
      onError: (error) => app?.log.warn({ err: error }, 'egress proxy connection failed'),
    });
  const templateEgress = ownsBrowsers ? egressFor(allowListOnly(netPolicy), 'template') : undefined;
  const pageEgress = ownsBrowsers ? egressFor(netPolicy, 'page') : undefined;
  const browsers: BrowserPool =
    overrides.browsers ??
    // Stripped here too, whatever the caller passed: Chromium never sees the service's secrets.
    createBrowserProvider({
      search: config.browser.search,
      runningAsRoot: config.browser.runningAsRoot,
      env: browserEnvironment(config.browser.env),
      // By default one page per core renders at once; more only queue inside Chromium. A
      // template asked for again has its other pages opened ahead (pool-options.ts openAhead):
      // clients that arrive together then find them loaded.
      pool: { ...pool, openAhead: true },
      egressProxyPort: templateEgress?.port,
      pageEgressProxyPort: pageEgress?.port,
      templateNetwork: templateNetwork(netPolicy),
      log: (event) => {
        metrics?.poolLog(event);
        if (event.type === 'crash') app?.log.warn({ pool: event }, 'browser crashed; the next render launches another');
        if (event.type === 'cleanup-failed') app?.log.warn({ err: event.error, generation: event.generation }, `browser pool: ${event.what} failed`);
      },
    });
  const closeEngine = () => (ownsBrowsers ? engine.close().finally(() => Promise.all([templateEgress?.close(), pageEgress?.close()])) : Promise.resolve());

  let publicUrl = config.publicUrl;
  // Read when a URL is made: with port 0 the address is known only once listening.
  const urls = serviceUrls(() => publicUrl!);
  const serverEngine = createServerEngine({
    store,
    browsers,
    renderTimeoutMs: config.renderTimeoutMs,
    renderLimits: config.renderLimits,
    spool: config.spool,
    urlTtlMs: config.urlTtlMs,
    urls,
    fetchPart: createPartFetcher(() => serviceUrlAccess(netPolicy, overrides.resolve)),
    signing: { key: teamSigningKeys(store, given.serverSecret), fetch: policedTsaFetch(netPolicy, overrides.resolve) },
  });
  const engine = metrics ? metrics.engine(serverEngine, () => serverEngine.poolStats(), pool.maxQueue) : serverEngine;

  let stopPurging = () => {};
  let jobsRuntime: JobsRuntime | undefined;
  let metricsListener: Awaited<ReturnType<NonNullable<typeof metrics>['listen']>>;
  try {
    jobsRuntime = await createJobsRuntime({
      store,
      engine,
      browsers,
      urlTtlMs: config.urlTtlMs,
      urls,
      netPolicy,
      resolve: overrides.resolve,
      leaseMs: config.jobLeaseMs,
      rowLimits: { maxDepth: config.renderLimits.maxPropsDepth, maxBytes: config.limits.requestBytes },
      webhooks: jobWebhooks({ store, netPolicy, resolve: overrides.resolve, ...config.webhooks }),
      onError: (error) => app?.log.error({ err: error }, 'a job row or webhook failed; it is tried again'),
      metrics: metrics?.jobs(store.jobs),
    });
    app = await createApp({
      store,
      engine,
      browsers,
      limits: config.limits,
      netPolicy,
      resolve: overrides.resolve,
      timeouts: config.timeouts,
      now,
      version: config.version,
      logger: config.logger,
      metrics: metrics?.app,
      jobs: { store, jobs: jobsRuntime.jobs, urls, requestBytes: config.limits.requestBytes },
      trustProxy: config.trustProxy,
      // Its requests may come from the operator's public address as well as the one they were sent to.
      dashboard: config.dashboard ? { publicUrl: () => config.publicUrl } : undefined,
    });
    for (const notice of notices) app.log.warn(notice);
    await hangIfAsked(config.dataDir);
    await listen(app, config.host, config.port);
    const log = app.log;
    metricsListener = await metrics?.listen(config.host, (error) => log.error({ err: error }, 'collecting the metrics failed'));
    const url = listeningUrl(app.server.address() as AddressInfo);
    if (!publicUrl) {
      publicUrl = url;
      if (['0.0.0.0', '::'].includes(config.host)) {
        app.log.warn(`Download URLs use ${url}; set --public-url (IMPRINT_PUBLIC_URL) to the address clients reach this service at.`);
      }
    }
    stopPurging = await startPurging(store, app.log, config.purgeIntervalMs);
    // Once listening: rows make download URLs, whose base is known only now.
    await jobsRuntime.start();
    const started = app;
    const runtime = jobsRuntime;
    return {
      url,
      publicUrl,
      config: { ...config, publicUrl },
      app: started,
      metricsUrl: metricsListener?.url ?? (metrics?.app.onApiPort ? `${url}/metrics` : undefined),
      async close() {
        stopPurging();
        try {
          // Rows in progress finish (and are recorded) while the browser is still there.
          await Promise.all([started.close(), metricsListener?.close(), runtime.stop()]);
        } finally {
          await closeEngine().finally(() => store.close());
        }
      },
    };
  } catch (error) {
    stopPurging();
    await metricsListener?.close();
    await jobsRuntime?.stop();
    await app?.close();
    await closeEngine().finally(() => store.close());
    throw error;
  }
}
