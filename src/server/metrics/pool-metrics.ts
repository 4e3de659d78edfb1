/**
 * The render pool as metrics: its events (launches, retirements, crashes, which process each
 * browser runs as) counted as they happen, and its state (slots busy, queue, current browser)
 * plus the memory of the Chromium processes read at each scrape.
 */
import type { PoolEvent, PoolLog } from '../../core/render/pool-events.js';
import type { PoolStats } from '../../core/render/pool.js';
import type { Metrics } from './metrics.js';
import { treeMemory } from './process-tree-memory.js';

export interface PoolMetrics {
  /** Hand to the pool as its log (with the service's own logging after it). */
  observe: PoolLog;
  /** Reads the pool's state at scrape time; absent until the engine exists. */
  readStatsFrom(stats: () => PoolStats, maxQueue: number): void;
}

export function poolMetrics(metrics: Metrics): PoolMetrics {
  /** The browser process of each generation still running, learned from its renders. */
  const browserPids = new Map<number, number>();
  let stats: (() => PoolStats) | undefined;
  let maxQueue: number | undefined;

  const observe = (event: PoolEvent) => {
    switch (event.type) {
      case 'launch':
        metrics.pool.launches.inc();
        break;
      case 'retire':
        metrics.pool.restarts.inc({ reason: event.reason });
        metrics.pool.rendersPerBrowser.observe(event.renders);
        break;
      case 'crash':
        metrics.pool.crashes.inc();
        browserPids.delete(event.generation);
        break;
      case 'render-start':
        if (event.pid !== undefined) browserPids.set(event.generation, event.pid);
        break;
    }
  };

  const poolGauges = {
    slots: { name: 'imprint_pool_slots', help: 'Render slots: documents that may render at once.' },
    busy: { name: 'imprint_pool_slots_busy', help: 'Render slots in use now.' },
    queued: { name: 'imprint_pool_queue_length', help: 'Renders waiting for a slot now.' },
    queueLimit: { name: 'imprint_pool_queue_limit', help: 'Renders that may wait; one more is answered 429.' },
    browserRunning: { name: 'imprint_browser_running', help: '1 while a browser is running (it is launched on demand and closed when idle).' },
    rendersOnBrowser: { name: 'imprint_browser_current_renders', help: 'Renders the current browser has served so far.' },
    warmPages: { name: 'imprint_pool_warm_pages', help: 'Template pages kept loaded for reuse.' },
  };
  metrics.gauges(poolGauges, () => {
    if (!stats) return {};
    const now = stats();
    return {
      slots: now.concurrency,
      busy: now.active,
      queued: now.queued,
      queueLimit: maxQueue,
      browserRunning: now.browserRunning ? 1 : 0,
      rendersOnBrowser: now.rendersOnBrowser ?? 0,
      warmPages: now.warmPages,
    };
  });

  const memoryGauges = {
    rssBytes: { name: 'imprint_chromium_memory_bytes', help: "Resident memory of the pool's Chromium processes (each browser and every process it started), summed." },
    processes: { name: 'imprint_chromium_processes', help: "Processes of the pool's Chromium browsers." },
  };
  metrics.gauges(memoryGauges, async () => {
    const memory = await treeMemory(browserPids.values());
    // A browser retired and closed leaves no process: forget it.
    for (const [generation, pid] of browserPids) if (!processExists(pid)) browserPids.delete(generation);
    return memory ?? {};
  });

  return {
    observe,
    readStatsFrom(read, queueLimit) {
      stats = read;
      maxQueue = queueLimit;
    },
  };
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
