/**
 * The browser `imprint browser install` puts into Puppeteer's cache: Chrome Headless Shell at
 * the build the bundled puppeteer-core is made for (its PUPPETEER_REVISIONS, the pin
 * `npx puppeteer browsers install` uses too), so the protocol Imprint speaks and the browser
 * answering it are the pair Puppeteer tests together.
 */
import { PUPPETEER_REVISIONS } from 'puppeteer-core/internal/revisions.js';

export const HEADLESS_SHELL = {
  /** @puppeteer/browsers' name for it: its folder in the cache. */
  browser: 'chrome-headless-shell',
  title: 'Chrome Headless Shell',
  buildId: PUPPETEER_REVISIONS['chrome-headless-shell'],
} as const;

/**
 * Where the pinned build's executable is (or would be) in `cacheDir`, on this platform;
 * undefined where Chrome for Testing has no build for this OS and CPU. Loads
 * @puppeteer/browsers, so a caller that can do without it checks the cache folder first.
 */
export async function headlessShellPath(cacheDir: string): Promise<string | undefined> {
  const { Browser, computeExecutablePath, detectBrowserPlatform } = await import('@puppeteer/browsers');
  const platform = detectBrowserPlatform();
  if (!platform) return undefined;
  return computeExecutablePath({ cacheDir, browser: Browser.CHROMEHEADLESSSHELL, buildId: HEADLESS_SHELL.buildId, platform });
}
