/**
 * The shapes the browser pool and its sources share, in a module of their own with no code, so
 * that the pool (pool.ts, pool-browser.ts) and what feeds it (browser-provider.ts) depend on it
 * and never on each other.
 */
import type { Browser } from 'puppeteer-core';

/** A browser as its source hands it to the pool: the pool may close it, or kill it. */
export interface LaunchedBrowser {
  readonly browser: Browser;
  /** Its process, for logs and tests; undefined when it never got one. */
  readonly pid: number | undefined;
  /** Kills it with every process of its group; resolves once they are gone and its profile removed. */
  kill(): Promise<void>;
}

/** Where the pool gets its browsers: each one it opens is its own to close and replace. */
export interface BrowserSource {
  open(): Promise<LaunchedBrowser>;
  /** The egress proxy (its port) of the fresh contexts raw HTML and web pages render in. */
  freshContextProxy?: () => Promise<number>;
}

/** What code that only needs "the browser" asks for (health checks, `imprint check`, `dev`). */
export interface BrowserProvider {
  browser(): Promise<Browser>;
  close(): Promise<void>;
}
