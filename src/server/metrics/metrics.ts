/**
 * The service's Prometheus metrics (docs/operate.md describes each): one registry per running
 * service, so several services in one process (tests) never mix their counts. Whatever feeds
 * them (HTTP hooks, the engine, the store, the pool) only calls these; the registry and the
 * metric names live here and nowhere else.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricsOptions {
  /**
   * Label generation counts with the team's id. Off by default: the operator decides whether
   * whoever scrapes the metrics may see which teams use the service and how much.
   */
  teamLabels?: boolean;
}

/** Seconds: from a fast warm-page render (tens of ms) to the default render timeout (30 s). */
const RENDER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: HTTP answers, from a health check to a render near its timeout. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: SQLite calls and file reads and writes of the data folder. */
const STORE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1];
/** Renders a browser served before it was retired. */
const BROWSER_RENDER_BUCKETS = [1, 10, 50, 100, 250, 500, 1000, 2500, 5000];

export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  const teamLabels = options.teamLabels === true;
  const teamLabelNames = teamLabels ? ['team'] : [];

  // Node's own: memory, event loop lag, open handles and requests, GC.
  collectDefaultMetrics({ register: registry });

  return {
    registry,
    teamLabels,
    http: {
      requests: new Counter({ name: 'imprint_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers }),
      duration: new Histogram({
        name: 'imprint_http_request_duration_seconds',
        help: 'Time from a request arriving to its answer being sent, by method, route pattern and status.',
        labelNames: ['method', 'route', 'status'],
        buckets: HTTP_BUCKETS,
        registers,
      }),
    },
    render: {
      duration: new Histogram({
        name: 'imprint_render_duration_seconds',
        help: 'Whole renders as the engine ran them (queue, page, print, result form), by kind (template, html, url), result form (pdf, base64, json) and result (ok or the error code).',
        labelNames: ['kind', 'format', 'result'],
        buckets: RENDER_BUCKETS,
        registers,
      }),
      phase: new Histogram({
        name: 'imprint_render_phase_seconds',
        help: 'A render phase: queue (waiting for a render slot), load (browser, page load and render up to the print), print (Chromium printing the PDF); by kind and result form.',
        labelNames: ['phase', 'kind', 'format'],
        buckets: RENDER_BUCKETS,
        registers,
      }),
    },
    pool: {
      rejected: new Counter({ name: 'imprint_pool_rejected_total', help: 'Renders refused because every slot was busy and the queue full (answered 429).', registers }),
      launches: new Counter({ name: 'imprint_browser_launches_total', help: 'Chromium browsers launched.', registers }),
      restarts: new Counter({
        name: 'imprint_browser_restarts_total',
        help: 'Browsers retired, by reason: restart-after (served its renders), idle (closed when idle), close (service stopping).',
        labelNames: ['reason'],
        registers,
      }),
      crashes: new Counter({ name: 'imprint_browser_crashes_total', help: 'Browsers that stopped on their own (crashed or killed); the next render launches another.', registers }),
      rendersPerBrowser: new Histogram({
        name: 'imprint_browser_renders',
        help: 'Renders a browser had served when it was retired.',
        buckets: BROWSER_RENDER_BUCKETS,
        registers,
      }),
    },
    generations: {
      counted: new Counter({ name: 'imprint_generations_total', help: 'Generations counted against a team\'s limit (successful renders).', labelNames: teamLabelNames, registers }),
      refused: new Counter({ name: 'imprint_generations_refused_total', help: 'Renders refused because the team\'s generation limit was reached (answered 422).', labelNames: teamLabelNames, registers }),
    },
    store: {
      duration: new Histogram({
        name: 'imprint_store_operation_duration_seconds',
        help: 'Store operations (SQLite or PostgreSQL, artifacts and issued files in the data folder), by operation.',
        labelNames: ['operation'],
        buckets: STORE_BUCKETS,
        registers,
      }),
      errors: new Counter({
        name: 'imprint_store_operation_errors_total',
        help: 'Store operations that failed, by operation and kind (storage-full, storage-unavailable, or error).',
        labelNames: ['operation', 'kind'],
        registers,
      }),
    },
    /** A gauge whose value is read at each scrape. */
    gauge(name: string, help: string, read: () => number | undefined) {
      return new Gauge({
        name,
        help,
        registers,
        collect() {
          const value = read();
          if (value === undefined) this.reset();
          else this.set(value);
        },
      });
    },
    /** Several gauges filled by one read at each scrape (the pool's stats, Chromium's memory). */
    gauges<K extends string>(specs: Record<K, { name: string; help: string }>, read: () => Promise<Partial<Record<K, number>>> | Partial<Record<K, number>>) {
      let pending: Promise<Partial<Record<K, number>>> | undefined;
      // One read serves every gauge of one scrape: the first to collect starts it, the others share it.
      const shared = () => (pending ??= Promise.resolve(read()).finally(() => setImmediate(() => (pending = undefined))));
      for (const key of Object.keys(specs) as K[]) {
        new Gauge({
          ...specs[key],
          registers,
          async collect() {
            const value = (await shared())[key];
            if (value === undefined) this.reset();
            else this.set(value);
          },
        });
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The labels of a team's count: its id when the operator allows it, none otherwise. */
export const teamLabel = (metrics: Metrics, teamId: number): Record<string, string> => (metrics.teamLabels ? { team: String(teamId) } : {});
