/**
 * `imprint browser install|path|list`: a browser for Imprint without root or a system package
 * manager (Chrome Headless Shell into Puppeteer's cache), and which browser Imprint uses.
 */
import type { Command } from 'commander';
import { ImprintError, usageError } from '../../core/errors.js';
import { findBrowser, isExecutable } from '../../core/render/find-browser.js';
import { HEADLESS_SHELL } from '../../core/render/headless-shell.js';
import { installHeadlessShell } from '../browser/install-headless-shell.js';
import type { CliContext } from '../context.js';
import { envText, type Environment } from '../../backend/environment.js';
import { startDownloadProgress } from '../ui/download-progress.js';
import { done, note, warn } from '../ui/status.js';
import { formatTable } from '../ui/table.js';

const WHAT = `${HEADLESS_SHELL.title} ${HEADLESS_SHELL.buildId}`;
/** Puppeteer's own variables for a download mirror, the specific one first. */
const BASE_URL_VARIABLES = ['PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL', 'PUPPETEER_DOWNLOAD_BASE_URL'];

/** --base-url, else Puppeteer's variables, with where it came from; undefined for Google's Chrome for Testing host. */
function mirror(flag: string | undefined, env: Environment): { url: string; from: string } | undefined {
  const variable = BASE_URL_VARIABLES.find((name) => envText(env, name) !== undefined);
  const value = flag ?? (variable ? envText(env, variable) : undefined);
  if (value === undefined) return undefined;
  const source = flag !== undefined ? '--base-url' : variable!;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${source} is not a URL: "${value}". Give the mirror's address, e.g. https://mirror.example.com/chrome-for-testing-public.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${source} must be an http or https URL: "${value}".`);
  // @puppeteer/browsers appends "/<build>/...": a trailing slash would double it.
  return { url: value.replace(/\/+$/, ''), from: source };
}

/** Which of the settings that take precedence over the installed browser is set, if one is. */
function explicitSetting(ctx: CliContext): string | undefined {
  if (ctx.options.browser) return '--browser';
  return ['IMPRINT_BROWSER', 'PUPPETEER_EXECUTABLE_PATH'].find((name) => envText(ctx.env, name) !== undefined);
}

export function registerBrowser(program: Command, context: () => CliContext) {
  const group = program
    .command('browser')
    .description("get a headless Chrome for imprint without root (install), and see which browser imprint uses (path, list)")
    .addHelpText(
      'after',
      [
        '',
        'imprint prints with Chrome or Chromium, the first it finds of:',
        '  1. --browser <path> or IMPRINT_BROWSER (or PUPPETEER_EXECUTABLE_PATH)',
        `  2. the ${HEADLESS_SHELL.title} \`imprint browser install\` put into Puppeteer's cache`,
        '  3. the system\'s: /usr/bin/chromium, google-chrome, /snap/bin/chromium, the macOS apps',
        "  4. any other Chrome in Puppeteer's cache (~/.cache/puppeteer, or PUPPETEER_CACHE_DIR)",
        '',
        'Examples:',
        '  $ imprint browser install',
        '  $ imprint browser path',
        '  $ imprint browser list --json',
      ].join('\n'),
    );

  group
    .command('install')
    .description(`download ${WHAT}, the build imprint's Puppeteer is made for, into Puppeteer's cache (no root needed)`)
    .option('--base-url <url>', `download from this mirror of https://storage.googleapis.com/chrome-for-testing-public (env ${BASE_URL_VARIABLES.join(' or ')})`)
    .addHelpText(
      'after',
      [
        '',
        "For a user who is not root, or whose system's chromium is a snap stub: the browser goes into",
        "Puppeteer's cache (~/.cache/puppeteer, or PUPPETEER_CACHE_DIR), and imprint uses it from then on",
        'without --browser (unless --browser or IMPRINT_BROWSER says otherwise). Installing again when it is',
        'there downloads nothing. The executable\'s path is printed on stdout; progress goes to stderr.',
        '',
        `The mirror (--base-url) serves the files of Chrome for Testing under the same paths, here`,
        `<url>/${HEADLESS_SHELL.buildId}/linux64/chrome-headless-shell-linux64.zip on Linux x64.`,
        'Behind a proxy, set HTTPS_PROXY and NODE_USE_ENV_PROXY=1 (Node reads the proxy variables only then).',
        "On a bare container the browser also needs Chrome's shared libraries (libnss3, libgbm1...):",
        '`imprint doctor` says whether it starts.',
        '',
        'Examples:',
        '  $ imprint browser install',
        '  $ imprint browser install --base-url https://mirror.example.com/chrome-for-testing-public',
        '  $ PUPPETEER_CACHE_DIR=/opt/puppeteer imprint browser install   # then set it for imprint too',
        '  $ export IMPRINT_BROWSER="$(imprint browser install)"          # pin the path in a script',
      ].join('\n'),
    )
    .action(async (flags: { baseUrl?: string }) => {
      const ctx = context();
      const cacheDir = ctx.browserSettings.search.puppeteerCacheDir!;
      const progress = startDownloadProgress();
      let unpacking = false;
      const installing = installHeadlessShell({
        cacheDir,
        mirror: mirror(flags.baseUrl, ctx.env),
        env: ctx.env,
        onDownload: (url) => note(`Downloading ${WHAT} from ${url}`),
        onProgress: (downloaded, total) => {
          progress.update(downloaded, total);
          if (!unpacking && total > 0 && downloaded >= total) {
            unpacking = true;
            progress.finish();
            note(`Unpacking into ${cacheDir}`);
          }
        },
      });
      // A bar still drawn (a failure, or a size the server did not say) ends before the next line.
      const outcome = await installing.finally(() => {
        if (!unpacking) progress.finish();
      });
      if (outcome.alreadyInstalled) done(`${WHAT} is already installed: ${outcome.executablePath}`);
      else done(`Installed ${WHAT}${outcome.replacedIncomplete ? ' (in place of an install that had not finished)' : ''}: ${outcome.executablePath}`);
      const explicit = explicitSetting(ctx);
      if (explicit) warn(`${explicit} is set, so imprint uses that browser rather than this one while it is.`);
      process.stdout.write(`${outcome.executablePath}\n`);
    });

  group
    .command('path')
    .description('print the path of the browser imprint uses (see `imprint browser --help` for the order)')
    .action(async () => {
      process.stdout.write(`${await findBrowser(context().browserSettings.search)}\n`);
    });

  group
    .command('list')
    .description("list the browsers in Puppeteer's cache, and say which browser imprint uses")
    .option('--json', 'print {"cacheDir", "used", "browsers": [{browser, buildId, platform, executablePath, runnable}]}')
    .action(async (flags: { json?: boolean }) => {
      const search = context().browserSettings.search;
      const cacheDir = search.puppeteerCacheDir!;
      const { getInstalledBrowsers } = await import('@puppeteer/browsers');
      const browsers = (await getInstalledBrowsers({ cacheDir })).map(({ browser, buildId, platform, executablePath }) => ({
        browser,
        buildId,
        platform,
        executablePath,
        runnable: isExecutable(executablePath),
      }));
      const used = await findBrowser(search).catch((error: unknown) => {
        if (error instanceof ImprintError && error.code === 'BROWSER_NOT_FOUND') return null;
        throw error;
      });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ cacheDir, used, browsers }, null, 2)}\n`);
        return;
      }
      if (browsers.length === 0) note(`No browser in Puppeteer's cache (${cacheDir}). \`imprint browser install\` puts one there.`);
      else {
        const rows = browsers.map((b) => [b.browser, b.buildId, b.platform, b.runnable ? b.executablePath : `${b.executablePath} (missing)`]);
        process.stdout.write(formatTable(['BROWSER', 'BUILD', 'PLATFORM', 'EXECUTABLE'], rows, !process.stdout.isTTY));
      }
      note(used ? `imprint uses ${used}` : 'imprint finds no browser: run `imprint browser install`.');
    });
}
