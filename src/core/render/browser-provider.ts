/**
 * The browser pool over browsers it launches itself (pool.ts): lazily on the first render,
 * relaunched after a crash, restarted every N renders, closed when idle. The launching is here,
 * the supervising there: the pool gets each browser from `launchedBrowsers` as
 * `{ browser, pid, kill }` and knows nothing of how it was started.
 */
import { findBrowser, type BrowserSearch } from './find-browser.js';
import { launchBrowser, type LaunchOptions } from './launch-browser.js';
import type { BrowserSource, LaunchedBrowser } from './browser-types.js';
import type { PoolLog } from './pool-events.js';
import type { TemplateNetwork } from '../net/template-network.js';
import { createBrowserPool, type BrowserPool } from './pool.js';
import type { PoolOptions } from './pool-options.js';

export interface BrowserProviderOptions {
  search: BrowserSearch;
  runningAsRoot: boolean;
  env?: Record<string, string | undefined>;
  /** Pool settings; `concurrency` should be the machine's cores (os.availableParallelism()). */
  pool?: PoolOptions;
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
  /**
   * Starts a browser; launchBrowser by default. The CLI hands in one that first takes a
   * browser it started ahead of need (cli/launch-ahead.ts).
   */
  launch?: (options: LaunchOptions) => Promise<LaunchedBrowser>;
}

type SourceOptions = Pick<BrowserProviderOptions, 'search' | 'runningAsRoot' | 'env' | 'egressProxyPort' | 'pageEgressProxyPort' | 'launch'>;

/** Browsers the pool launches, and so may close and replace. */
export function launchedBrowsers(options: SourceOptions): BrowserSource {
  const launch = options.launch ?? launchBrowser;
  let executablePath: string | undefined;
  return {
    freshContextProxy: options.pageEgressProxyPort,
    async open() {
      // Found once: the search reads the disk, and the answer does not change while we run.
      executablePath ??= await findBrowser(options.search);
      return launch({ executablePath, runningAsRoot: options.runningAsRoot, env: options.env, egressProxyPort: options.egressProxyPort });
    },
  };
}

export function createBrowserProvider(options: BrowserProviderOptions): BrowserPool {
  return createBrowserPool({ ...options.pool, source: launchedBrowsers(options), log: options.log, templateNetwork: options.templateNetwork });
}
