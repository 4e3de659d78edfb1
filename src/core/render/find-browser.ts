/**
 * Finds a Chromium to drive, the most deliberate choice first: an explicit setting, the Chrome
 * Headless Shell `imprint browser install` put into Puppeteer's cache, the usual system paths,
 * then any other browser in that cache. Nothing is downloaded here: where no browser is found,
 * the error says how to get one.
 */
import fs from 'node:fs';
import { ImprintError } from '../errors.js';
import { headlessShellPath } from './headless-shell.js';

export const SYSTEM_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const INSTALL_HINT =
  'Install one with `imprint browser install` (a headless Chrome for this user, no root needed) or `apt-get install -y chromium` (Debian/Ubuntu, as root), or point imprint at an installed Chrome or Chromium with --browser <path> or IMPRINT_BROWSER=<path>.';

export interface BrowserSearch {
  /** --browser or IMPRINT_BROWSER / PUPPETEER_EXECUTABLE_PATH. */
  explicitPath?: string;
  /** Puppeteer's cache folder (~/.cache/puppeteer unless PUPPETEER_CACHE_DIR says otherwise). */
  puppeteerCacheDir?: string;
  systemPaths?: string[];
}

export const isExecutable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * Distribution launchers that are shell scripts in front of the real binary. Debian's
 * /usr/bin/chromium runs uname, grep, find, findmnt and a dozen `expr`s before it execs
 * /usr/lib/chromium/chromium (about 0.1 s of every launch), and adds flags we either pass
 * ourselves (--disable-dev-shm-usage, --disable-background-networking) or do not want
 * (extensions, Google API keys in the environment).
 */
export const LAUNCHER_SCRIPTS: Readonly<Record<string, string>> = {
  '/usr/bin/chromium': '/usr/lib/chromium/chromium',
  '/usr/bin/google-chrome-stable': '/opt/google/chrome/chrome',
  '/usr/bin/google-chrome': '/opt/google/chrome/chrome',
};

const isScript = (file: string) => {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } finally {
    fs.closeSync(fd);
  }
};

/** The binary a known launcher script would exec, when both are there; else the path found. */
export function skipLauncherScript(file: string, scripts: Readonly<Record<string, string>> = LAUNCHER_SCRIPTS): string {
  const binary = scripts[file];
  return binary && isExecutable(binary) && isScript(file) ? binary : file;
}

export async function findBrowser(search: BrowserSearch): Promise<string> {
  if (search.explicitPath) {
    if (isExecutable(search.explicitPath)) return search.explicitPath;
    throw new ImprintError('BROWSER_NOT_FOUND', `The browser set explicitly (${search.explicitPath}) does not exist or is not executable. ${INSTALL_HINT}`);
  }
  // @puppeteer/browsers is loaded only when the cache folder exists: most machines have none,
  // and every command starts faster without it.
  const cacheDir = search.puppeteerCacheDir && fs.existsSync(search.puppeteerCacheDir) ? search.puppeteerCacheDir : undefined;
  // Before the system's: a user runs `imprint browser install` because the system browser does
  // not do (a snap stub, one they cannot update without root), and it is the build puppeteer-core
  // is made for.
  const installed = cacheDir && (await headlessShellPath(cacheDir));
  if (installed && isExecutable(installed)) return installed;
  // A path set explicitly is used as given; a system one may be a launcher script.
  const system = (search.systemPaths ?? SYSTEM_BROWSER_PATHS).find(isExecutable);
  if (system) return skipLauncherScript(system);
  if (cacheDir) {
    const { Browser, getInstalledBrowsers } = await import('@puppeteer/browsers');
    const cached = await getInstalledBrowsers({ cacheDir });
    const chrome = cached.find((b) => (b.browser === Browser.CHROME || b.browser === Browser.CHROMIUM || b.browser === Browser.CHROMEHEADLESSSHELL) && isExecutable(b.executablePath));
    if (chrome) return chrome.executablePath;
  }
  throw new ImprintError('BROWSER_NOT_FOUND', `No Chrome or Chromium was found. ${INSTALL_HINT}`);
}
