/**
 * The knobs of the browser pool and their defaults. Core never reads the machine or the
 * environment: the caller (the CLI's embedded backend, the server's start) passes the number
 * of pages that may work at once, usually os.availableParallelism().
 */
export interface PoolSettings {
  /** Pages rendering at once. Printing is CPU-bound, so more than the cores rarely helps. */
  concurrency: number;
  /** Renders waiting for a page; one more is refused with BUSY (the server's 429). */
  maxQueue: number;
  /** A browser is replaced after this many renders, so leaks in Chromium cannot pile up. */
  restartAfterRenders: number;
  /** A template page is replaced after this many renders at most, whatever its heap says. */
  pageRecycleAfter: number;
  /**
   * A template page whose script heap has grown by more than this many MiB since it was first
   * measured (checked every few renders) is replaced: module state a template keeps cannot
   * grow without bound, and a page that keeps nothing is not reloaded for nothing.
   */
  pageHeapGrowthLimitMiB: number;
  /** Idle warm pages kept for the next render of the same template (least recently used go first). */
  warmPages: number;
  /** With nothing to do for this long the browser is closed; 0 keeps it until close(). */
  idleShutdownMs: number;
  /**
   * close() kills the browser instead of asking it to quit (about 0.1 s sooner). For a process
   * about to exit, the CLI: Chromium's helper processes then go to init to be reaped, which a
   * long-running service should not leave to it. Browsers replaced along the way still quit.
   */
  killOnClose: boolean;
  /**
   * A template rendered again on a warm page gets its other pages (up to the concurrency)
   * opened ahead, in a free slot, so the first renders that come at once find them loaded
   * instead of each paying a page's opening (~0.3-0.5 s of Chromium's CPU) while others wait.
   * Off by default (a CLI batch opens its pages at once anyway); the service turns it on.
   */
  openAhead: boolean;
}

/** What callers set; the rest follows from these (warm pages from the concurrency). */
export type PoolOptions = Partial<Omit<PoolSettings, 'warmPages'>>;

/**
 * Over 2,000 renders of the bench's invoice on one browser, never replaced, the process tree's
 * memory stayed between 480 and 730 MiB with no upward trend (bench/HISTORY.md, issue 24):
 * replacing it every 500 renders cost a launch, new pages and a cold JIT for no memory won.
 */
export const DEFAULT_RESTART_AFTER_RENDERS = 2000;
/** Replacing a page costs a page load (~0.2-0.5 s) and a cold JIT; the heap check below is what replaces a leaking one. */
export const DEFAULT_PAGE_RECYCLE_AFTER = 1000;
/** Well above the garbage a page's heap holds between collections (the invoice's: a few MiB). */
export const DEFAULT_PAGE_HEAP_GROWTH_LIMIT_MIB = 64;
export const DEFAULT_IDLE_SHUTDOWN_MS = 5 * 60_000;
/** A queue this deep drains in a few seconds at warm-page speeds. */
const QUEUE_PER_PAGE = 50;

export function resolvePoolSettings(input: PoolOptions = {}): PoolSettings {
  const concurrency = positiveInteger('concurrency', input.concurrency ?? 1);
  return {
    concurrency,
    maxQueue: nonNegativeInteger('maxQueue', input.maxQueue ?? concurrency * QUEUE_PER_PAGE),
    restartAfterRenders: positiveInteger('restartAfterRenders', input.restartAfterRenders ?? DEFAULT_RESTART_AFTER_RENDERS),
    pageRecycleAfter: positiveInteger('pageRecycleAfter', input.pageRecycleAfter ?? DEFAULT_PAGE_RECYCLE_AFTER),
    pageHeapGrowthLimitMiB: positiveInteger('pageHeapGrowthLimitMiB', input.pageHeapGrowthLimitMiB ?? DEFAULT_PAGE_HEAP_GROWTH_LIMIT_MIB),
    warmPages: Math.max(2, concurrency * 2),
    idleShutdownMs: nonNegativeInteger('idleShutdownMs', input.idleShutdownMs ?? DEFAULT_IDLE_SHUTDOWN_MS),
    killOnClose: input.killOnClose ?? false,
    openAhead: input.openAhead ?? false,
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`Pool setting ${name} must be a whole number of at least 1, got ${value}.`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`Pool setting ${name} must be a whole number of at least 0, got ${value}.`);
  return value;
}
