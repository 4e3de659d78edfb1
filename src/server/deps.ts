/** What the HTTP app is built from: everything with a side effect is handed in. */
import type { FastifyServerOptions } from 'fastify';
import type { Engine } from '../core/engine.js';
import type { NetPolicy } from '../core/net/address-policy.js';
import type { Resolver } from '../core/net/resolver.js';
import type { BrowserProvider } from '../core/render/browser-types.js';
import type { Store } from '../core/store/index.js';
import type { Clock } from '../core/store/time.js';
import type { ClientTimeouts } from './client-timeouts.js';
import type { AppMetrics } from './metrics/install.js';
import type { JobRoutesDeps } from './jobs/routes.js';
import type { DashboardOptions } from './dashboard/index.js';

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
  trustProxy?: boolean;
}
