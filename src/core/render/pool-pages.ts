/**
 * The pages of one browser. Each isolation key (a team) has its own browser context, so
 * cookies, storage and caches are never shared between keys; a context is closed when its
 * last page is. Template pages stay warm between renders, keyed by isolation key and artifact,
 * so another render of the same template only calls into the page again. Idle pages beyond
 * `warmPages` are closed, least recently used first; a page is replaced when its script heap
 * has grown by more than `pageHeapGrowthLimitMiB` (measured every HEAP_CHECK_EVERY renders),
 * after `pageRecycleAfter` renders at most, and at once after any failure.
 */
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import type { PoolLog } from './pool-events.js';

/** Renders between two measures of a warm page's heap: one CDP call, far apart enough to cost nothing. */
export const HEAP_CHECK_EVERY = 25;
const MIB = 1024 * 1024;

export interface PageCacheOptions {
  warmPages: number;
  pageRecycleAfter: number;
  pageHeapGrowthLimitMiB: number;
  /**
   * A proxy of their own for fresh contexts (raw HTML, web pages): the browser's own proxy is
   * the templates' stricter one. Loopback is not bypassed, so the proxy decides about it too.
   */
  freshContextProxy?: () => Promise<number>;
  log: PoolLog;
  generation: number;
  now: () => number;
}

interface ContextEntry {
  context: BrowserContext;
  /** Pages open or being opened in it. */
  pages: number;
  isDefault: boolean;
}

export interface PageLease<S> {
  readonly page: Page;
  readonly state: S;
  /** The page already held this artifact: no load was needed. */
  readonly warm: boolean;
}

interface Entry<S> extends PageLease<S> {
  key: string;
  isolationKey: string;
  renders: number;
  context: ContextEntry;
  /** The script heap's used bytes at the page's first measure. */
  heapBaseline?: number;
}

export type CloseReason = 'recycle' | 'dirty' | 'failed' | 'evicted';

export function createPageCache(browser: Browser, options: PageCacheOptions) {
  /** A context being created is recorded as its promise, so concurrent renders of one key share it. */
  const contexts = new Map<string, ContextEntry | Promise<ContextEntry>>();
  /** Idle template pages, least recently used first. */
  let idle: Entry<unknown>[] = [];
  /** Template pages open or being opened, per page key (isolation key and artifact): what openAhead counts. */
  const pagesByKey = new Map<string, number>();
  const countPage = (key: string, delta: number) => {
    const count = (pagesByKey.get(key) ?? 0) + delta;
    if (count > 0) pagesByKey.set(key, count);
    else pagesByKey.delete(key);
  };
  const pageKey = (isolationKey: string, artifactKey: string) => `${isolationKey}\u0000${artifactKey}`;
  // The default context and its first tab come with the launch: free for the first key.
  let defaultClaimed = false;
  let spareTab: Promise<Page | undefined> | undefined;

  function contextFor(isolationKey: string): ContextEntry | Promise<ContextEntry> {
    const existing = contexts.get(isolationKey);
    if (existing) return existing;
    if (!defaultClaimed) {
      defaultClaimed = true;
      spareTab = browser.pages().then((pages) => pages.find((page) => page.url() === 'about:blank'));
      const entry = { context: browser.defaultBrowserContext(), pages: 0, isDefault: true };
      contexts.set(isolationKey, entry);
      return entry;
    }
    const pending = browser.createBrowserContext().then(
      (context) => {
        const entry = { context, pages: 0, isDefault: false };
        contexts.set(isolationKey, entry);
        return entry;
      },
      (error: unknown) => {
        contexts.delete(isolationKey); // the next render tries again
        throw error;
      },
    );
    contexts.set(isolationKey, pending);
    return pending;
  }

  async function newPage(entry: ContextEntry): Promise<Page> {
    if (entry.isDefault && spareTab) {
      // Taken before awaiting: two renders starting together must not both get the one tab.
      const spare = spareTab;
      spareTab = undefined;
      const tab = await spare;
      if (tab && !tab.isClosed()) return tab;
    }
    // A window of its own: a second tab in a window hides the first, and a hidden page gets no
    // animation frames, so a render waiting for layout there would never finish.
    return entry.context.newPage({ type: 'window' });
  }

  async function closeEntry(entry: Entry<unknown>, reason: CloseReason) {
    countPage(entry.key, -1);
    options.log({ type: 'page-close', generation: options.generation, reason });
    try {
      if (!entry.page.isClosed()) await entry.page.close();
    } catch (error) {
      options.log({ type: 'cleanup-failed', generation: options.generation, what: 'closing a page', error });
    }
    await dropPage(entry.isolationKey, entry.context);
  }

  async function dropPage(isolationKey: string, entry: ContextEntry) {
    entry.pages--;
    if (entry.pages > 0 || entry.isDefault || contexts.get(isolationKey) !== entry) return;
    contexts.delete(isolationKey);
    try {
      await entry.context.close();
    } catch (error) {
      options.log({ type: 'cleanup-failed', generation: options.generation, what: 'closing a browser context', error });
    }
  }

  /**
   * Whether the page's script heap has grown past the limit since its first measure. The first
   * measure comes after HEAP_CHECK_EVERY renders, with the template's code and first caches in.
   */
  async function heapOutgrown(entry: Entry<unknown>): Promise<boolean> {
    const { JSHeapUsedSize: used } = await entry.page.metrics();
    if (used === undefined) return false;
    entry.heapBaseline ??= used;
    return used - entry.heapBaseline > options.pageHeapGrowthLimitMiB * MIB;
  }

  /** A new page for `key`, loaded by `open`; `ms` it took. */
  async function openEntry<S>(isolationKey: string, artifactKey: string, open: (page: Page) => Promise<S>): Promise<{ entry: Entry<S>; ms: number }> {
    const key = pageKey(isolationKey, artifactKey);
    countPage(key, 1);
    let context: ContextEntry;
    try {
      context = await contextFor(isolationKey);
    } catch (error) {
      countPage(key, -1);
      throw error;
    }
    context.pages++;
    const started = options.now();
    let page: Page | undefined;
    try {
      page = await newPage(context);
      const state = await open(page);
      return { entry: { page, state, warm: false, key, isolationKey, renders: 0, context }, ms: Math.round(options.now() - started) };
    } catch (error) {
      countPage(key, -1);
      if (page && !page.isClosed()) await page.close().catch((closeError: unknown) => options.log({ type: 'cleanup-failed', generation: options.generation, what: 'closing a page', error: closeError }));
      await dropPage(isolationKey, context);
      throw error;
    }
  }

  return {
    /**
     * A page holding `artifactKey` for `isolationKey`: an idle warm one, or a new page that
     * `open` loads. The caller hands it back with release().
     */
    async lease<S>(isolationKey: string, artifactKey: string, open: (page: Page) => Promise<S>): Promise<PageLease<S>> {
      const key = pageKey(isolationKey, artifactKey);
      // The most recently used match: the one most likely still in the CPU caches.
      for (let i = idle.length - 1; i >= 0; i--) {
        if (idle[i].key !== key) continue;
        const [entry] = idle.splice(i, 1);
        if (!entry.page.isClosed()) return entry as Entry<S>;
        await closeEntry(entry, 'failed'); // its renderer went away while it waited
      }
      const { entry, ms } = await openEntry(isolationKey, artifactKey, open);
      options.log({ type: 'page-open', generation: options.generation, isolationKey, artifactKey, ms });
      return entry;
    },

    /** Template pages open or being opened for this isolation key and artifact. */
    pagesOf: (isolationKey: string, artifactKey: string) => pagesByKey.get(pageKey(isolationKey, artifactKey)) ?? 0,

    /** Whether one more idle page fits without evicting another template's. */
    roomForOneMore: () => idle.length < options.warmPages,

    /**
     * Opens one more page for `artifactKey` ahead of need and keeps it idle, as warm as a used
     * one (the pool's openAhead). Never evicts: without room it is closed again at once.
     */
    async openAhead<S>(isolationKey: string, artifactKey: string, open: (page: Page) => Promise<S>): Promise<void> {
      const { entry, ms } = await openEntry(isolationKey, artifactKey, open);
      if (entry.page.isClosed() || idle.length >= options.warmPages) return closeEntry(entry, 'evicted');
      (entry as { warm: boolean }).warm = true;
      // Least recently used: the page that just rendered stays the first choice.
      idle.unshift(entry);
      options.log({ type: 'page-open', generation: options.generation, isolationKey, artifactKey, ms, ahead: true });
    },

    /** Hands a page back: kept warm when `reusable`, else closed for `reason`. */
    async release(lease: PageLease<unknown>, reusable: boolean, reason: CloseReason = 'failed'): Promise<void> {
      const entry = lease as Entry<unknown>;
      entry.renders++;
      if (!reusable || entry.page.isClosed()) return closeEntry(entry, reason);
      if (entry.renders >= options.pageRecycleAfter) return closeEntry(entry, 'recycle');
      if (entry.renders % HEAP_CHECK_EVERY === 0) {
        let outgrown: boolean;
        try {
          outgrown = await heapOutgrown(entry);
        } catch (error) {
          // A page that cannot be measured is not kept: it is closed like a failed one.
          options.log({ type: 'cleanup-failed', generation: options.generation, what: 'measuring a page\'s heap', error });
          return closeEntry(entry, 'failed');
        }
        if (outgrown) return closeEntry(entry, 'recycle');
      }
      (entry as { warm: boolean }).warm = true;
      idle.push(entry);
      const evicted = idle.length > options.warmPages ? idle.splice(0, idle.length - options.warmPages) : [];
      await Promise.all(evicted.map((old) => closeEntry(old, 'evicted')));
    },

    /** A context of its own for one render (web pages keep cookies; nothing is reused). */
    async freshContext(): Promise<BrowserContext> {
      if (!options.freshContextProxy) return browser.createBrowserContext();
      const port = await options.freshContextProxy();
      return browser.createBrowserContext({ proxyServer: `http://127.0.0.1:${port}`, proxyBypassList: ['<-loopback>'] });
    },

    idleCount: () => idle.length,
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
