/**
 * Downloads Chrome Headless Shell at the build puppeteer-core is made for into Puppeteer's
 * cache, where Imprint's browser search looks (core/render/find-browser.ts), with
 * @puppeteer/browsers: its download URLs, cache layout and unpacking are the ones every
 * Puppeteer tool shares, so a browser installed by either is found by both.
 *
 * All or nothing: the download and unpacking happen in a staging folder inside the cache
 * (hidden, named for this process) and the finished browser folder is renamed into place, so a
 * render running meanwhile never finds half a browser, and a failure or a Ctrl-C leaves no
 * browser folder behind. A staging folder whose process is gone is removed by the next install.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { isExecutable } from '../../core/render/find-browser.js';
import { HEADLESS_SHELL } from '../../core/render/headless-shell.js';
import type { Environment } from '../../backend/environment.js';
import { isAlive } from '../renderer/renderer-lock.js';
import { downloadFailure } from './download-failure.js';

export interface InstallRequest {
  cacheDir: string;
  /** A mirror of https://storage.googleapis.com/chrome-for-testing-public, and where it was given (a flag, a variable); undefined for that host. */
  mirror?: { url: string; from: string };
  env: Environment;
  /** The download starts from `url`. */
  onDownload(url: string): void;
  /** Bytes received so far, and the total (0 when the server does not say). */
  onProgress(downloaded: number, total: number): void;
}

export interface InstallOutcome {
  executablePath: string;
  /** It was there already: nothing was downloaded. */
  alreadyInstalled: boolean;
  /** A browser folder without its executable (an install that did not finish) was replaced. */
  replacedIncomplete: boolean;
}

const STAGING_PREFIX = '.imprint-install-';

/** Staging folders of installs whose process is gone (killed, or the machine restarted). */
function removeAbandonedStaging(cacheDir: string): void {
  for (const name of fs.readdirSync(cacheDir)) {
    const pid = name.startsWith(STAGING_PREFIX) ? Number(name.slice(STAGING_PREFIX.length).split('-')[0]) : NaN;
    if (Number.isInteger(pid) && !isAlive(pid)) fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  }
}

/** Removes the folders mkdir created for `dir` (from `firstCreated` down), as long as they are empty. */
function removeCreatedFolders(dir: string, firstCreated: string | undefined): void {
  if (!firstCreated) return;
  for (let current = dir; current.startsWith(firstCreated); current = path.dirname(current)) {
    if (fs.readdirSync(current).length > 0) return;
    fs.rmdirSync(current);
    if (current === firstCreated) return;
  }
}

export async function installHeadlessShell(request: InstallRequest): Promise<InstallOutcome> {
  // Loaded by this command only: it is most of what a download needs.
  const { Browser, Cache, computeExecutablePath, detectBrowserPlatform, getDownloadUrl, install } = await import('@puppeteer/browsers');
  const what = `${HEADLESS_SHELL.title} ${HEADLESS_SHELL.buildId}`;
  const platform = detectBrowserPlatform();
  if (!platform) {
    throw new ImprintError('BROWSER_NOT_FOUND', `There is no ${HEADLESS_SHELL.title} for ${os.platform()} on ${os.arch()}.`, {
      details: "Install Chrome or Chromium with this system's package manager, and point imprint at it with --browser <path> or IMPRINT_BROWSER=<path>.",
    });
  }
  const browser = Browser.CHROMEHEADLESSSHELL;
  const { buildId } = HEADLESS_SHELL;
  const cacheDir = path.resolve(request.cacheDir);
  const executablePath = computeExecutablePath({ cacheDir, browser, buildId, platform });
  if (isExecutable(executablePath)) return { executablePath, alreadyInstalled: true, replacedIncomplete: false };

  const installDir = new Cache(cacheDir).installationDir(browser, platform, buildId);
  const url = getDownloadUrl(browser, platform, buildId, request.mirror?.url).toString();
  const attempt = { what, url, mirrorFrom: request.mirror?.from, cacheDir, env: request.env };
  let firstCreated: string | undefined;
  let staging: string;
  try {
    firstCreated = fs.mkdirSync(cacheDir, { recursive: true });
    removeAbandonedStaging(cacheDir);
    staging = fs.mkdtempSync(path.join(cacheDir, `${STAGING_PREFIX}${process.pid}-`));
  } catch (error) {
    if (firstCreated) removeCreatedFolders(cacheDir, firstCreated);
    throw downloadFailure(error, attempt);
  }
  let installed = false;
  try {
    request.onDownload(url);
    try {
      await install({ cacheDir: staging, browser, buildId, platform, baseUrl: request.mirror?.url, downloadProgressCallback: request.onProgress });
    } catch (error) {
      throw downloadFailure(error, attempt);
    }
    const stagedDir = new Cache(staging).installationDir(browser, platform, buildId);
    const staged = computeExecutablePath({ cacheDir: staging, browser, buildId, platform });
    if (!isExecutable(staged)) {
      throw new ImprintError('DOWNLOAD_FAILED', `The archive from ${url} unpacked without ${path.relative(installDir, executablePath)}: it is not ${what}.`, {
        details: 'A mirror must serve the same files as https://storage.googleapis.com/chrome-for-testing-public.',
      });
    }
    // Another install of the same build (another terminal, another tool) may have finished
    // meanwhile: its browser is as good as this one, and may be running.
    const finishedMeanwhile = () => isExecutable(executablePath);
    if (finishedMeanwhile()) return { executablePath, alreadyInstalled: true, replacedIncomplete: false };
    const replacedIncomplete = fs.existsSync(installDir);
    try {
      fs.mkdirSync(path.dirname(installDir), { recursive: true });
      if (replacedIncomplete) fs.rmSync(installDir, { recursive: true, force: true });
      fs.renameSync(stagedDir, installDir);
    } catch (error) {
      if (finishedMeanwhile()) return { executablePath, alreadyInstalled: true, replacedIncomplete: false };
      throw downloadFailure(error, attempt);
    }
    installed = true;
    return { executablePath, alreadyInstalled: false, replacedIncomplete };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    if (!installed) removeCreatedFolders(cacheDir, firstCreated);
  }
}
