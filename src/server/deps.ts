/**
 * What the HTTP app is built from: everything with a side effect is handed in. The option types
 * of the parts it installs are declared here too, not imported from those parts: they import
 * this file, and a type import back from it would tie them all into one circle.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Engine } from '../core/engine.js';
import type { Jobs } from '../core/jobs/jobs.js';
import type { NetPolicy } from '../core/net/address-policy.js';
import type { Resolver } from '../core/net/resolver.js';
import type { BrowserProvider } from '../core/render/browser-types.js';
import type { Store } from '../core/store/index.js';
import type { Clock } from '../core/store/time.js';
import type { ClientTimeouts } from './http/client-timeouts.js';
import type { AppMetrics } from './metrics/install.js';
import type { WebAssets } from '../core/web-assets.js';
import type { ServiceUrls } from './urls.js';
import type { TrustProxy } from './settings/trust-proxy.js';

export interface BodyLimits {
  /** A1/A2 bodies (props, HTML). */
  requestBytes: number;
  /** A published artifact: the bundle with its fonts and images. */
  artifactBytes: number;
}

/**
 * The engine's part the routes call: the seam where a test hands in a fake engine (the error
 * answers tested in milliseconds) while `serve` hands in the real one.
 */
/** `einvoiceDocument` optional: an app built without it (a test's fake engine) answers the e-invoice route 404. */
export type AppEngine = Pick<Engine, 'renderDocument' | 'generate' | 'publish' | 'list'> & Partial<Pick<Engine, 'einvoiceDocument'>>;

/** What the job routes (jobs/routes.ts, api.md Part D) and the dashboard's job views are given. */
export interface JobRoutesDeps {
  store: Store;
  jobs: Jobs;
  /** Where a job's URLs point (statusUrl, archiveUrl, row downloads): their base read per request, known once listening. */
  urls: ServiceUrls;
  requestBytes: number;
}

/** The team dashboard's settings (dashboard/index.ts). */
export interface DashboardOptions {
  /** A session unused this long ends (default 12 h). */
  sessionIdleMs?: number;
  /** The service's public base URL, when the operator set one: another origin the dashboard's requests may come from. */
  publicUrl?: () => string | undefined;
  /** Wrong keys one address may send per window before it is refused for the rest of it. */
  signInAttempts?: number;
  signInWindowMs?: number;
  /** The browser wing's built files (tests); default dist/web in the package. */
  assets?: WebAssets;
}

export interface AppDeps {
  store: Store;
  engine: AppEngine;
  /** The engine's browsers, asked by /healthz. */
  browsers: BrowserProvider;
  limits: BodyLimits;
  /**
   * The operator's outbound policy: A2's `url` is judged by it before any browser work. The
   * same object is what the browser launch hands its egress proxy, so both agree.
   */
  netPolicy: NetPolicy;
  /** Name resolution for the url check; the system resolver by default (tests hand in a table). */
  resolve?: Resolver;
  /** How long slow clients are waited for; DEFAULT_CLIENT_TIMEOUTS when absent. */
  timeouts?: ClientTimeouts;
  now: Clock;
  version: string;
  /** Fastify's logger option (pino): `false`, `{ level }`, `{ level, stream }`... */
  logger?: FastifyServerOptions['logger'];
  /** Prometheus metrics: every answer counted; /metrics on this app only when asked. */
  metrics?: AppMetrics;
  /** Jobs (api.md Part D): their routes only when the service runs jobs. */
  jobs?: JobRoutesDeps;
  /** The team dashboard at / (server/dashboard): served only when given. */
  dashboard?: DashboardOptions;
  /** Believe X-Forwarded-For and X-Forwarded-Proto (the service is behind a proxy the operator runs): client addresses and https as the proxy saw them. */
  trustProxy?: TrustProxy;
}
