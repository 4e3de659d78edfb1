/** How this machine's Chromium is found and started (the CLI and the library), from --browser (the library's `browser`) and the environment. */
import os from 'node:os';
import path from 'node:path';
import { browserEnvironment } from '../core/browser-env.js';
import type { BrowserSearch } from '../core/render/find-browser.js';
import { envText, type Environment } from './environment.js';

export interface BrowserSettings {
  search: BrowserSearch;
  env: Record<string, string | undefined>;
  runningAsRoot: boolean;
}

export function browserSettings(browserFlag: string | undefined, env: Environment): BrowserSettings {
  return {
    search: {
      explicitPath: browserFlag ?? envText(env, 'IMPRINT_BROWSER') ?? envText(env, 'PUPPETEER_EXECUTABLE_PATH'),
      puppeteerCacheDir: envText(env, 'PUPPETEER_CACHE_DIR') ?? path.join(os.homedir(), '.cache', 'puppeteer'),
    },
    // Chromium gets what it needs to run and nothing that looks like a secret (core/browser-env.ts).
    env: browserEnvironment(env),
    runningAsRoot: process.getuid?.() === 0,
  };
}
