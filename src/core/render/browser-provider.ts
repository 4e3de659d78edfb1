/**
 * Where renders get their browser. `createBrowserProvider` makes the pool (pool.ts) over
 * browsers it launches itself: lazily on the first render, relaunched after a crash, restarted
 * every N renders, closed when idle. The plain BrowserProvider shape (a browser, and close)
 * stays for code that only needs the browser, and for callers that lend one browser to several
 * engines (tests): the engine builds a pool over a lent browser (see lentBrowser).
 */
import type { Browser } from 'puppeteer-core';
import { findBrowser, type BrowserSearch } from './find-browser.js';
import { launchBrowser } from './launch-browser.js';
import type { PoolLog } from './pool-events.js';
import type { TemplateNetwork } from '../net/template-network.js';
import { createBrowserPool, type BrowserPool } from './pool.js';
import type { BrowserSource } from './pool-browser.js';
import type { PoolSettings } from './pool-options.js';

export interface BrowserProvider {
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

export interface BrowserProviderOptions {
  search: BrowserSearch;
  runningAsRoot: boolean;
  env?: Record<string, string | undefined>;
  /** Pool settings; `concurrency` should be the machine's cores (os.availableParallelism()). */
  pool?: Partial<PoolSettings>;
  log?: PoolLog;
  /**
   * The egress proxy every request of a launched browser goes through (see lazy-egress-proxy):
   * the strictest policy, the one published templates render under.
   */
  egressProxyPort?: () => Promise<number>;
  /** The proxy of the contexts raw HTML and web pages render in (generate), when it differs. */
  pageEgressProxyPort?: () => Promise<number>;
  /** Requests a template's page may send out (the operator's allow-list); none when absent. */
  templateNetwork?: TemplateNetwork;
}

/** Browsers the pool launches, and so may close and replace. */
export function launchedBrowsers(options: Pick<BrowserProviderOptions, 'search' | 'runningAsRoot' | 'env' | 'egressProxyPort' | 'pageEgressProxyPort'>): BrowserSource {
  let executablePath: string | undefined;
  return {
    owned: true,
    freshContextProxy: options.pageEgressProxyPort,
    async open() {
      // Found once: the search reads the disk, and the answer does not change while we run.
      executablePath ??= await findBrowser(options.search);
      return launchBrowser({ executablePath, runningAsRoot: options.runningAsRoot, env: options.env, egressProxyPort: options.egressProxyPort });
    },
  };
}

export function createBrowserProvider(options: BrowserProviderOptions): BrowserPool {
  return createBrowserPool({ ...options.pool, source: launchedBrowsers(options), log: options.log, templateNetwork: options.templateNetwork });
}
