/**
 * Starts Chromium for printing. The flags stop the background traffic Chromium sends at
 * start-up (on a closed network it floods the log with refused connections and slows every
 * launch); --no-sandbox only when running as root, where Chromium refuses to start without it.
 * The browser is driven over a pipe: no debugging port that a page could reach.
 */
import type { Browser } from 'puppeteer-core';
import { ImprintError } from '../errors.js';

export const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-dev-shm-usage',
  '--mute-audio',
];

export interface LaunchOptions {
  executablePath: string;
  runningAsRoot: boolean;
  /** The browser's environment: callers pass only what Chromium needs, never service secrets. */
  env?: Record<string, string | undefined>;
}

export function chromiumArgs(runningAsRoot: boolean): string[] {
  return runningAsRoot ? [...QUIET_FLAGS, '--no-sandbox'] : [...QUIET_FLAGS];
}

export async function launchBrowser(options: LaunchOptions): Promise<Browser> {
  // Puppeteer is loaded when a browser is first needed, not by every command at start-up.
  const { default: puppeteer } = await import('puppeteer-core');
  try {
    return await puppeteer.launch({
      executablePath: options.executablePath,
      headless: true,
      pipe: true,
      args: chromiumArgs(options.runningAsRoot),
      env: options.env,
      // The caller owns shutdown (the CLI's boundary, the server's signal handler).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    throw new ImprintError('BROWSER_FAILED', `Chromium (${options.executablePath}) failed to start: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}
