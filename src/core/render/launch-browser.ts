/**
 * Starts Chromium for printing. The flags stop the background traffic Chromium sends at
 * start-up (on a closed network it floods the log with refused connections and slows every
 * launch); --no-sandbox only when running as root, where Chromium refuses to start without it.
 * The browser is driven over a pipe: no debugging port that a page could reach.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { ImprintError } from '../errors.js';
import { egressChromiumArgs } from '../net/chromium-flags.js';
import { writeEgressProfilePreferences } from '../net/profile-preferences.js';

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
  /**
   * Route every request of the browser through this egress proxy (issue 5): the proxy flags,
   * plus a profile of our own whose preferences keep WebRTC's UDP off the direct path (the
   * command-line switch alone is ignored by full Chromium).
   */
  egressProxyPort?: () => Promise<number>;
}

export function chromiumArgs(runningAsRoot: boolean): string[] {
  return runningAsRoot ? [...QUIET_FLAGS, '--no-sandbox'] : [...QUIET_FLAGS];
}

/**
 * A profile folder of our own is ours to remove once Chromium has exited (it writes there
 * until then). Retried, as Puppeteer does for its own temporary profiles; a folder that still
 * cannot be removed is disk clutter, never lost work, so the failure ends there.
 */
const removeProfile = (dir: string | undefined) =>
  dir ? fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined) : Promise.resolve();

export async function launchBrowser(options: LaunchOptions): Promise<Browser> {
  // Puppeteer is loaded when a browser is first needed, not by every command at start-up.
  const { default: puppeteer } = await import('puppeteer-core');
  const args = chromiumArgs(options.runningAsRoot);
  let userDataDir: string | undefined;
  if (options.egressProxyPort) {
    // Some proxy flags (--disable-quic) are quiet flags too: each is passed once.
    for (const flag of egressChromiumArgs(await options.egressProxyPort())) if (!args.includes(flag)) args.push(flag);
    userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprint-profile-'));
    await writeEgressProfilePreferences(userDataDir);
  }
  try {
    const browser = await puppeteer.launch({
      executablePath: options.executablePath,
      headless: true,
      pipe: true,
      args,
      userDataDir,
      env: options.env,
      // The caller owns shutdown (the CLI's boundary, the server's signal handler).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    if (userDataDir) {
      const dir = userDataDir;
      browser.process()?.once('exit', () => void removeProfile(dir));
    }
    return browser;
  } catch (error) {
    await removeProfile(userDataDir);
    throw new ImprintError('BROWSER_FAILED', `Chromium (${options.executablePath}) failed to start: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}
