/** A Chromium started the way the pool starts it (same flags), for the scenarios that drive it directly. */
import type { Browser } from 'puppeteer-core';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';

export const runningAsRoot = process.getuid?.() === 0;

export async function startChromium(): Promise<Browser> {
  const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
  return (await launchBrowser({ executablePath, runningAsRoot })).browser;
}
