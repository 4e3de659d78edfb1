/**
 * One browser, launched on first use and shared by every render of the process, relaunched
 * if it disconnected (a crash, or Chromium killed from outside). The CLI and the server both
 * hold one; the warm pool of issue 4 grows out of this.
 */
import type { Browser } from 'puppeteer-core';
import { findBrowser, type BrowserSearch } from './find-browser.js';
import { launchBrowser } from './launch-browser.js';

export interface BrowserProvider {
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

export interface BrowserProviderOptions {
  search: BrowserSearch;
  runningAsRoot: boolean;
  env?: Record<string, string | undefined>;
}

export function createBrowserProvider(options: BrowserProviderOptions): BrowserProvider {
  let current: Browser | undefined;
  let launching: Promise<Browser> | undefined;

  async function launch(): Promise<Browser> {
    const executablePath = await findBrowser(options.search);
    return launchBrowser({ executablePath, runningAsRoot: options.runningAsRoot, env: options.env });
  }

  return {
    async browser() {
      if (current?.connected) return current;
      // Concurrent callers share one launch; a failed launch is retried by the next call.
      launching ??= launch()
        .then((browser) => (current = browser))
        .finally(() => (launching = undefined));
      return launching;
    },
    async close() {
      const browser = current ?? (await launching);
      current = undefined;
      if (browser?.connected) await browser.close();
    },
  };
}
