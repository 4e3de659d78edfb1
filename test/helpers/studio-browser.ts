/** A headless Chromium (puppeteer-core) with one page sized for the dev studio's four columns. */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';

export async function launchStudioBrowser(): Promise<{ browser: Browser; page: Page }> {
  const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
  const { browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
  const page = await browser.newPage();
  await page.setViewport({ width: 1600, height: 1000 });
  return { browser, page };
}
