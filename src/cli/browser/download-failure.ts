/**
 * Why a browser download failed, in words a user can act on. @puppeteer/browsers reports every
 * failure as one Error whose message lists each download source's reason ("All providers
 * failed for chrome-headless-shell <build>:\n  - DefaultProvider: <reason>"), with no code or
 * cause kept, so the reason is read from that text: an HTTP status, a network or file-system
 * error code, an unpacking failure. A reason not recognised is still shown as it is.
 */
import { ImprintError } from '../../core/errors.js';

export interface DownloadAttempt {
  /** What was being installed, e.g. "Chrome Headless Shell 156.0.8078.47". */
  what: string;
  /** The archive's URL. */
  url: string;
  /** Where the mirror's URL came from (--base-url or an environment variable); undefined for Google's host. */
  mirrorFrom?: string;
  cacheDir: string;
  env: Record<string, string | undefined>;
}

const USE_INSTALLED = 'Or use a Chrome or Chromium installed another way: --browser <path> or IMPRINT_BROWSER=<path>.';

const MAX_REASON = 240;

/**
 * The reasons in @puppeteer/browsers' "All providers failed" message (each may span lines, as
 * unzip's output does), else the message itself; on one line each, without the "Download
 * failed:" and "URL: ..." the message below says in its own words.
 */
export function downloadReasons(message: string): string[] {
  const [first, ...rest] = message.split('\n');
  const listed = /^All providers failed/.test(first ?? '') ? rest.join('\n').split(/^\s+- [^:\n]+: /m).slice(1) : [message];
  return listed.map((reason) => {
    const text = reason.replace(/\s+/g, ' ').replace(/^Download failed: /, '').replace(/\.? URL: \S+$/, '').trim().replace(/\.$/, '');
    return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
  });
}

function mirrorHint(attempt: DownloadAttempt): string {
  if (!attempt.mirrorFrom) {
    return 'Without access to storage.googleapis.com, download from a mirror of it: --base-url <url> (or PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL or PUPPETEER_DOWNLOAD_BASE_URL).';
  }
  return `The mirror (from ${attempt.mirrorFrom}) must serve the files of https://storage.googleapis.com/chrome-for-testing-public under the same paths, here ${attempt.url}.`;
}

function networkHint(attempt: DownloadAttempt): string {
  const proxy = attempt.env.HTTPS_PROXY ?? attempt.env.https_proxy ?? attempt.env.HTTP_PROXY ?? attempt.env.http_proxy;
  const proxyLine =
    proxy && attempt.env.NODE_USE_ENV_PROXY !== '1'
      ? `A proxy is set (${proxy}), but Node uses it only with NODE_USE_ENV_PROXY=1: run NODE_USE_ENV_PROXY=1 imprint browser install.`
      : 'Behind a proxy, set HTTPS_PROXY=<proxy> and NODE_USE_ENV_PROXY=1 (Node uses the proxy variables only then).';
  return [`Check this machine's connection to ${new URL(attempt.url).host}.`, proxyLine, mirrorHint(attempt)].join('\n');
}

export function downloadFailure(error: unknown, attempt: DownloadAttempt): ImprintError {
  const message = error instanceof Error ? error.message : String(error);
  const reason = downloadReasons(message)[0]!;
  const fail = (code: 'DOWNLOAD_FAILED' | 'OUTPUT_FAILED', text: string, hints: string[]) =>
    new ImprintError(code, text, { cause: error, details: [...hints, USE_INSTALLED].join('\n') });

  const status = /server returned code (\d+)/.exec(reason)?.[1];
  if (status) {
    const missing = status === '404' || status === '403';
    return fail('DOWNLOAD_FAILED', `Could not download ${attempt.what}: ${attempt.url} answered HTTP ${status}${missing ? ' (no such file there)' : ''}.`, [
      missing && !attempt.mirrorFrom ? `Google's host has no ${attempt.what} for this platform.` : mirrorHint(attempt),
    ]);
  }
  if (/\b(ENOSPC|EDQUOT)\b|disk full/i.test(reason)) {
    return fail('OUTPUT_FAILED', `Could not install ${attempt.what} into ${attempt.cacheDir}: the disk is full (${reason}).`, [
      'Free some space (the browser takes about 250 MB unpacked), or install it elsewhere with PUPPETEER_CACHE_DIR=<dir>: imprint looks for it there as long as that variable is set.',
    ]);
  }
  if (/\b(EACCES|EPERM|EROFS|ENOTDIR|EEXIST)\b/.test(reason)) {
    return fail('OUTPUT_FAILED', `Could not install ${attempt.what} into ${attempt.cacheDir}: ${reason}.`, [
      'Make that folder writable by this user, or install elsewhere with PUPPETEER_CACHE_DIR=<dir>: imprint looks for it there as long as that variable is set.',
    ]);
  }
  if (/no zip archiver|unzip' was not found|Required native binary/.test(reason)) {
    return fail('DOWNLOAD_FAILED', `Could not unpack ${attempt.what}: no unzip program was found.`, ['Install unzip (`apt-get install -y unzip`, `brew install unzip`) and run this again.']);
  }
  if (/^Extraction failed/.test(reason)) {
    return fail('DOWNLOAD_FAILED', `Could not unpack ${attempt.what} downloaded from ${attempt.url}: ${reason}.`, [
      attempt.mirrorFrom ? mirrorHint(attempt) : 'The download may have been damaged on the way: run this again.',
    ]);
  }
  if (/\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EPIPE)\b|connection closed|expected \d+ bytes|certificate|socket hang up/i.test(reason)) {
    return fail('DOWNLOAD_FAILED', `Could not download ${attempt.what} from ${new URL(attempt.url).origin}: ${reason}.`, [networkHint(attempt)]);
  }
  return fail('DOWNLOAD_FAILED', `Could not install ${attempt.what}: ${reason}.`, [mirrorHint(attempt)]);
}
