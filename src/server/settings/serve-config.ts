/**
 * The service's settings: every default of `imprint serve` lives here once, and
 * resolveServeConfig applies them once, turning what a caller gave (the CLI's flags and
 * environment, a test's options) into the one object the service runs with. Whatever was
 * left out takes its default; whatever was given is checked before anything opens.
 */
import os from 'node:os';
import type { FastifyServerOptions } from 'fastify';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from '../../core/limits/render-limits.js';
import { createNetPolicy, type NetPolicy } from '../../core/net/address-policy.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../core/render/deadline.js';
import { DEFAULT_WEBHOOK_RETRY_BASE_MS } from '../../core/webhooks/backoff.js';
import type { BrowserSearch } from '../../core/render/find-browser.js';
import { ImprintError } from '../../core/errors.js';
import { DEFAULT_RESERVATION_LEASE_MS } from '../../core/store/reservation-lease.js';
import { resolvePoolSettings, type PoolSettings } from '../../core/render/pool-options.js';
import { defaultSpoolPolicy, type SpoolPolicy } from '../../core/spool/spool-policy.js';
import type { TrustProxy } from './trust-proxy.js';
import type { S3ObjectsOptions } from '../../core/store/objects/open-objects.js';
import { DEFAULT_CLIENT_TIMEOUTS, type ClientTimeouts } from '../http/client-timeouts.js';
import type { BodyLimits } from '../deps.js';
import type { MetricsConfig } from '../metrics/service-metrics.js';
import { DEFAULT_PURGE_INTERVAL_MS } from '../purge.js';

/** Renders that may wait per render slot unless the operator says otherwise: the pool's own default. */
export const QUEUE_PER_SLOT = resolvePoolSettings({ concurrency: 1 }).maxQueue;

export const SERVE_DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  /** How long a `json` result's download URL works. */
  urlTtlMs: 24 * 60 * 60 * 1000,
  /** The core's render deadline, time waiting for a slot included (api.md Part B: 504 past it). */
  renderTimeoutMs: DEFAULT_RENDER_TIMEOUT_MS,
  limits: {
    requestBytes: 10 * 1024 * 1024,
    artifactBytes: 50 * 1024 * 1024,
  } satisfies BodyLimits,
  renderLimits: DEFAULT_RENDER_LIMITS,
  timeouts: DEFAULT_CLIENT_TIMEOUTS,
  purgeIntervalMs: DEFAULT_PURGE_INTERVAL_MS,
  /** How long a job row stays with the node that claimed it: past it, another node (or this one restarted) takes it again. Longer than a render. */
  jobLeaseMs: 2 * 60 * 1000,
  webhooks: {
    /** The first retry's delay; each later one doubles, up to 360 times this (core/webhooks/backoff.ts). */
    retryBaseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS,
    /** One delivery attempt, connect to answer; past it the attempt failed and is retried. */
    timeoutMs: 10_000,
  } satisfies WebhookSettings,
  /** On PostgreSQL: how long a render's unsettled reservation holds its unit (a node that died). */
  reservationLeaseMs: DEFAULT_RESERVATION_LEASE_MS,
} as const;

/** How job webhooks are delivered (docs/webhooks.md). */
export interface WebhookSettings {
  retryBaseMs: number;
  timeoutMs: number;
}

/** The operator's render pool settings (--concurrency, --queue-length). */
interface ServePoolConfig {
  /** Documents rendered at once, one Chromium page each; default: the machine's cores. */
  concurrency?: number;
  /** Renders that may wait for a slot; one more is answered 429 with Retry-After. Default QUEUE_PER_SLOT per slot; 0: none wait. */
  maxQueue?: number;
}

export type ServePool = Pick<PoolSettings, 'concurrency' | 'maxQueue'>;

/** The pool settings the service runs with: the operator's, else one slot per core and QUEUE_PER_SLOT waiting per slot. */
export function servePoolSettings(config: ServePoolConfig = {}): ServePool {
  const resolved = resolvePoolSettings({ concurrency: config.concurrency ?? os.availableParallelism(), maxQueue: config.maxQueue });
  return { concurrency: resolved.concurrency, maxQueue: resolved.maxQueue };
}

/** What a caller of startServer gives: where the data is, the version, the browser; the rest is optional. */
export interface ServeConfig {
  dataDir: string;
  version: string;
  browser: { search: BrowserSearch; env: Record<string, string | undefined>; runningAsRoot: boolean };
  port?: number;
  host?: string;
  /** The base of download URLs as clients reach the service; default: the listening address. */
  publicUrl?: string;
  /** When a print goes to a file rather than memory (core/spool/spool-policy.ts; IMPRINT_SPOOL_FROM); default: 8 MiB, the system's temp folder. */
  spool?: SpoolPolicy;
  /** PostgreSQL for the store (postgres://...); default: SQLite in the data folder. */
  databaseUrl?: string;
  /** The team dashboard at / (server/dashboard); default on. */
  dashboard?: boolean;
  /** Whose X-Forwarded-For and X-Forwarded-Proto to believe (trust-proxy.ts); default off. */
  trustProxy?: TrustProxy;
  /** With databaseUrl: a dead node's reservations are given back after this; longer than renderTimeoutMs. */
  reservationLeaseMs?: number;
  /** An S3 bucket for artifacts and issued PDFs (needs databaseUrl); default: files in the data folder. */
  storage?: S3ObjectsOptions;
  urlTtlMs?: number;
  /** Counts the time a render waits for a slot too (api.md Part B: 504 past it). */
  renderTimeoutMs?: number;
  /**
   * Render slots and queue length of the service's own browsers. A browser handed in through
   * ServeOverrides.browsers (tests) keeps its own pool settings.
   */
  pool?: ServePoolConfig;
  logger?: FastifyServerOptions['logger'];
  /** Request body and upload sizes; each one left out takes its default. */
  limits?: Partial<BodyLimits>;
  /** Props depth, pages and bytes per document; each one left out takes its default. */
  renderLimits?: Partial<RenderLimits>;
  /** The operator's outbound policy (--allow-host, --allow-private); public addresses only when absent. */
  netPolicy?: NetPolicy;
  /** Slow and stalled clients; each bound left out takes its default. */
  timeouts?: Partial<ClientTimeouts>;
  purgeIntervalMs?: number;
  /** Prometheus metrics (docs/operate.md); off when absent. */
  metrics?: MetricsConfig;
  /** Job webhook retries and attempt timeout; each one left out takes its default. */
  webhooks?: Partial<WebhookSettings>;
  /** How long a job row stays claimed by a node that stopped answering before another takes it. */
  jobLeaseMs?: number;
  /** IMPRINT_SECRET: seals and opens the teams' signing keys (pdf/sign/sealed-key.ts); never logged, never in `config`. */
  serverSecret?: string;
}

/** The settings the service runs with: every default applied, every number checked. */
export interface ResolvedServeConfig {
  dataDir: string;
  version: string;
  browser: ServeConfig['browser'];
  port: number;
  host: string;
  /** Without a trailing slash; absent: the listening address, known once listening. */
  publicUrl?: string;
  /** Absent: SQLite in the data folder. */
  databaseUrl?: string;
  dashboard: boolean;
  trustProxy: TrustProxy;
  reservationLeaseMs: number;
  /** Absent: files in the data folder. */
  storage?: S3ObjectsOptions;
  urlTtlMs: number;
  renderTimeoutMs: number;
  spool: SpoolPolicy;
  pool: ServePool;
  logger?: FastifyServerOptions['logger'];
  limits: BodyLimits;
  renderLimits: RenderLimits;
  netPolicy: NetPolicy;
  timeouts: ClientTimeouts;
  purgeIntervalMs: number;
  metrics?: MetricsConfig;
  webhooks: WebhookSettings;
  jobLeaseMs: number;
}

/** `{ ...defaults, ...given }`, where a key given as undefined keeps its default. */
function withDefaults<T extends object>(defaults: T, given: Partial<T> | undefined): T {
  const set = Object.entries(given ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaults, ...Object.fromEntries(set) };
}

/**
 * A lease no longer than the render timeout could run out under a render still going, and its
 * unit be taken by another: the team would get one more document than its limit.
 */
function checkLease(leaseMs: number, renderTimeoutMs: number): number {
  if (leaseMs > renderTimeoutMs) return leaseMs;
  throw new ImprintError(
    'USAGE',
    `--reservation-lease (${leaseMs} ms) must be longer than --render-timeout (${renderTimeoutMs} ms): a render still going when its lease ran out could let its team past its limit. Give a longer lease (the default is ${DEFAULT_RESERVATION_LEASE_MS / 60_000} minutes).`,
  );
}

export function resolveServeConfig(config: ServeConfig): ResolvedServeConfig {
  const renderTimeoutMs = config.renderTimeoutMs ?? SERVE_DEFAULTS.renderTimeoutMs;
  return {
    dataDir: config.dataDir,
    version: config.version,
    browser: config.browser,
    port: config.port ?? SERVE_DEFAULTS.port,
    host: config.host ?? SERVE_DEFAULTS.host,
    publicUrl: config.publicUrl?.replace(/\/+$/, ''),
    databaseUrl: config.databaseUrl,
    dashboard: config.dashboard ?? true,
    trustProxy: config.trustProxy ?? false,
    reservationLeaseMs: checkLease(config.reservationLeaseMs ?? SERVE_DEFAULTS.reservationLeaseMs, renderTimeoutMs),
    storage: config.storage,
    urlTtlMs: config.urlTtlMs ?? SERVE_DEFAULTS.urlTtlMs,
    renderTimeoutMs,
    spool: config.spool ?? defaultSpoolPolicy(),
    pool: servePoolSettings(config.pool),
    logger: config.logger,
    limits: withDefaults<BodyLimits>(SERVE_DEFAULTS.limits, config.limits),
    renderLimits: withDefaults<RenderLimits>(SERVE_DEFAULTS.renderLimits, config.renderLimits),
    netPolicy: config.netPolicy ?? createNetPolicy(),
    timeouts: withDefaults<ClientTimeouts>(SERVE_DEFAULTS.timeouts, config.timeouts),
    purgeIntervalMs: config.purgeIntervalMs ?? SERVE_DEFAULTS.purgeIntervalMs,
    metrics: config.metrics,
    webhooks: withDefaults<WebhookSettings>(SERVE_DEFAULTS.webhooks, config.webhooks),
    jobLeaseMs: config.jobLeaseMs ?? SERVE_DEFAULTS.jobLeaseMs,
  };
}
