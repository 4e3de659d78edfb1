/**
 * The metrics of one running service, assembled: the registry, and the wrappers start.ts puts
 * around the store, the engine and the pool's log. Nothing is measured unless the operator
 * exposes the metrics somewhere (a metrics port, or the API's port).
 */
import type { Engine } from '../../core/engine.js';
import type { JobStore } from '../../core/jobs/job-types.js';
import type { PoolLog } from '../../core/render/pool-events.js';
import type { PoolStats } from '../../core/render/pool.js';
import type { Store } from '../../core/store/index.js';
import type { AppMetrics } from './install.js';
import { meteredEngine } from './metered-engine.js';
import { meteredStore } from './metered-store.js';
import { listenForMetrics, type MetricsListener } from './metrics-endpoint.js';
import { jobMetrics } from './job-metrics.js';
import { createMetrics } from './metrics.js';
import { poolMetrics } from './pool-metrics.js';

/** The operator's metrics settings (serve --metrics-port, --metrics-host, --metrics-on-api-port, --metrics-team-labels). */
export interface MetricsConfig {
  /** Serve /metrics on this port (0: a free one); none when absent. */
  port?: number;
  /** The metrics port's address; the API's --host when absent. */
  host?: string;
  /** Serve /metrics on the API's port too. */
  onApiPort?: boolean;
  /** Label generation counts with team ids. */
  teamLabels?: boolean;
}

export interface ServiceMetrics {
  app: AppMetrics;
  poolLog: PoolLog;
  store(store: Store): Store;
  engine(engine: Engine, stats: () => PoolStats, maxQueue: number): Engine;
  /** Job rows finished and pending: what to tell of each finished row (their renders are measured by the engine's wrapper). */
  jobs(jobs: JobStore): { onRow: (outcome: 'done' | 'failed') => void };
  /** Starts the metrics port, when one is configured. */
  listen(apiHost: string, onError: (error: unknown) => void): Promise<MetricsListener | undefined>;
}

export function serviceMetrics(config: MetricsConfig | undefined): ServiceMetrics | undefined {
  if (!config || (config.port === undefined && !config.onApiPort)) return undefined;
  const metrics = createMetrics({ teamLabels: config.teamLabels });
  const pool = poolMetrics(metrics);
  return {
    app: { metrics, onApiPort: config.onApiPort === true },
    poolLog: pool.observe,
    store: (store) => meteredStore(store, metrics),
    engine(engine, stats, maxQueue) {
      pool.readStatsFrom(stats, maxQueue);
      return meteredEngine(engine, metrics);
    },
    jobs: (jobs) => ({ onRow: jobMetrics(metrics, jobs) }),
    listen: (apiHost, onError) => (config.port === undefined ? Promise.resolve(undefined) : listenForMetrics(metrics, config.host ?? apiHost, config.port, onError)),
  };
}
