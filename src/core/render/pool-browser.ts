/**
 * The pool's browsers, one generation at a time. A generation is used until it has served
 * `restartAfterRenders` renders, then retired: it takes no new render and is closed once its
 * renders in flight are done, while the next render starts a new one. A generation that
 * disconnects (Chromium crashed or was killed) is dropped at once; its renders in flight fail
 * and the next render launches a replacement.
 *
 * Each browser comes from the source as `{ browser, pid, kill }`: closing it is the browser's
 * own close(), killing it the source's kill; how it was started is none of this module's business.
 */
import type { Browser } from 'puppeteer-core';
import type { BrowserSource, LaunchedBrowser } from './browser-types.js';
import type { PoolLog } from './pool-events.js';
import { createPageCache, type PageCache } from './pool-pages.js';

export interface Generation {
  readonly id: number;
  readonly browser: Browser;
  /** Its process id, for the pool's events. */
  readonly pid: number | undefined;
  readonly kill: LaunchedBrowser['kill'];
  readonly pages: PageCache;
  /** Renders handed to this browser so far. */
  renders: number;
  /** Renders running on it now. */
  active: number;
  retiring: boolean;
  disconnected: boolean;
}

export interface BrowserGenerationsOptions {
  source: BrowserSource;
  restartAfterRenders: number;
  warmPages: number;
  pageRecycleAfter: number;
  pageHeapGrowthLimitMiB: number;
  log: PoolLog;
  now: () => number;
}

export function createBrowserGenerations(options: BrowserGenerationsOptions) {
  let current: Generation | undefined;
  let opening: Promise<Generation> | undefined;
  let nextId = 1;
  /** Every generation whose browser may still run, current or retiring. */
  const live = new Set<Generation>();
  const closing = new Set<Promise<void>>();

  async function open(): Promise<Generation> {
    const started = options.now();
    const { browser, pid, kill } = await options.source.open();
    const id = nextId++;
    const generation: Generation = {
      id,
      browser,
      pid,
      kill,
      pages: createPageCache(browser, {
        warmPages: options.warmPages,
        pageRecycleAfter: options.pageRecycleAfter,
        pageHeapGrowthLimitMiB: options.pageHeapGrowthLimitMiB,
        freshContextProxy: options.source.freshContextProxy,
        log: options.log,
        generation: id,
        now: options.now,
      }),
      renders: 0,
      active: 0,
      retiring: false,
      disconnected: !browser.connected,
    };
    live.add(generation);
    browser.once('disconnected', () => {
      generation.disconnected = true;
      live.delete(generation);
      if (current === generation) current = undefined;
      if (!generation.retiring) options.log({ type: 'crash', generation: generation.id });
    });
    options.log({ type: 'launch', generation: generation.id, ms: Math.round(options.now() - started) });
    return generation;
  }

  async function close(generation: Generation, kill = false): Promise<void> {
    live.delete(generation);
    if (kill) return generation.kill();
    try {
      // A launched browser's close() waits for Chromium to exit, killing it after a grace
      // (launch-browser.ts), and is safe on one that already disconnected.
      await generation.browser.close();
    } catch (error) {
      options.log({ type: 'cleanup-failed', generation: generation.id, what: 'closing the browser', error });
      await generation.kill();
    }
  }

  function retire(generation: Generation, reason: 'restart-after' | 'idle' | 'close', kill = false) {
    if (current === generation) current = undefined;
    if (generation.retiring) return;
    generation.retiring = true;
    options.log({ type: 'retire', generation: generation.id, renders: generation.renders, reason });
    if (generation.active === 0) track(close(generation, kill));
  }

  /** One launch at a time, shared by every render waiting for it. */
  function launchNext(): Promise<Generation> {
    opening ??= open()
      .then((opened) => (current = opened))
      .finally(() => (opening = undefined));
    // A launch nobody awaits yet (started ahead of need) must not count as unhandled; its
    // failure still reaches the render that awaits it.
    opening.catch(() => undefined);
    return opening;
  }

  function track(work: Promise<void>) {
    closing.add(work);
    void work.finally(() => closing.delete(work));
  }

  return {
    /** The generation a new render runs on, counted as one of its renders. */
    async acquire(): Promise<Generation> {
      const generation = current ?? (await launchNext());
      generation.active++;
      generation.renders++;
      if (generation.renders >= options.restartAfterRenders) {
        retire(generation, 'restart-after');
        // The replacement starts now, while this browser finishes its last renders.
        void launchNext();
      }
      return generation;
    },

    /**
     * The current generation held for work that is not a render (a page opened ahead): it is
     * not closed under that work, and its render count is left alone. None when no browser runs.
     */
    holdCurrent(): Generation | undefined {
      if (!current || current.retiring || current.disconnected) return undefined;
      current.active++;
      return current;
    },

    release(generation: Generation) {
      generation.active--;
      if (generation.retiring && generation.active === 0) track(close(generation));
    },

    /** The browser of the current generation, launching one if none runs (health checks). */
    async browser(): Promise<Browser> {
      return (current ?? (await launchNext())).browser;
    },

    current: () => current,

    /** Closes the current browser (idle, or shutting down); the next render launches another. */
    retireCurrent(reason: 'idle' | 'close') {
      if (current) retire(current, reason);
    },

    /** Closes every browser now; renders still running on them fail. `kill`: see PoolSettings.killOnClose. */
    async closeAll(kill = false): Promise<void> {
      // A launch under way finishes first so its browser is not left running; if it failed,
      // the render that asked for it reports that, and there is nothing to close.
      if (opening) await opening.catch(() => undefined);
      for (const generation of live) {
        retire(generation, 'close', kill);
        if (generation.active > 0 && live.has(generation)) track(close(generation, kill));
      }
      await Promise.all(closing);
    },
  };
}

export type BrowserGenerations = ReturnType<typeof createBrowserGenerations>;
