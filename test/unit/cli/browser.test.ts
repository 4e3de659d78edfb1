/**
 * The two pieces of `imprint browser install` that are pure logic: how a failure of
 * @puppeteer/browsers reads (its messages as that library writes them), and the progress
 * shown on a terminal and in a pipe. The download itself is tested end to end against a
 * loopback mirror (test/e2e/browser-install.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { downloadFailure, downloadReasons, type DownloadAttempt } from '../../../src/cli/browser/download-failure.js';
import { barLine, progressLine, startDownloadProgress } from '../../../src/cli/ui/download-progress.js';

const URL_404 = 'https://storage.googleapis.com/chrome-for-testing-public/156.0.8078.47/linux64/chrome-headless-shell-linux64.zip';
const attempt = (overrides: Partial<DownloadAttempt> = {}): DownloadAttempt => ({ what: 'Chrome Headless Shell 156.0.8078.47', url: URL_404, cacheDir: '/home/u/.cache/puppeteer', env: {}, ...overrides });
/** As @puppeteer/browsers' install() words a failure of its one download source. */
const providersFailed = (reason: string) => new Error(`All providers failed for chrome-headless-shell 156.0.8078.47:\n  - DefaultProvider: ${reason}`);

describe('download failures', () => {
  test('the reasons are read out of "All providers failed", on one line each, without the URL', () => {
    const unzip = 'Extraction failed:   End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.';
    assert.deepEqual(downloadReasons(providersFailed(unzip).message), ['Extraction failed: End-of-central-directory signature not found. Either this file is not a zipfile, or it constitutes one disk of a multi-part archive']);
    assert.deepEqual(downloadReasons(providersFailed(`Download failed: server returned code 404. URL: ${URL_404}`).message), ['server returned code 404']);
    assert.deepEqual(downloadReasons('connect ECONNREFUSED 127.0.0.1:9'), ['connect ECONNREFUSED 127.0.0.1:9']);
  });

  test('an HTTP status names the URL; from Google\'s host a 404 means no build for this platform', () => {
    const error = downloadFailure(providersFailed(`Download failed: server returned code 404. URL: ${URL_404}`), attempt());
    assert.equal(error.code, 'DOWNLOAD_FAILED');
    assert.match(error.message, new RegExp(`${URL_404.replaceAll('.', '\\.')} answered HTTP 404`));
    assert.match(error.details ?? '', /Google's host has no Chrome Headless Shell 156\.0\.8078\.47 for this platform[\s\S]*--browser <path> or IMPRINT_BROWSER/);
    const mirrored = downloadFailure(providersFailed('Download failed: server returned code 500. URL: http://m/x.zip'), attempt({ url: 'http://m/x.zip', mirrorFrom: '--base-url' }));
    assert.match(mirrored.details ?? '', /The mirror \(from --base-url\) must serve .* here http:\/\/m\/x\.zip\./);
  });

  test('a network failure says how to reach the host: a proxy Node ignores is pointed out', () => {
    const error = downloadFailure(providersFailed('getaddrinfo ENOTFOUND storage.googleapis.com'), attempt({ env: { HTTPS_PROXY: 'http://proxy:3128' } }));
    assert.equal(error.code, 'DOWNLOAD_FAILED');
    assert.match(error.message, /from https:\/\/storage\.googleapis\.com: getaddrinfo ENOTFOUND/);
    assert.match(error.details ?? '', /A proxy is set \(http:\/\/proxy:3128\), but Node uses it only with NODE_USE_ENV_PROXY=1/);
    assert.match(error.details ?? '', /download from a mirror of it: --base-url <url>/);
  });

  test('a full disk or a folder that cannot be written is OUTPUT_FAILED, with PUPPETEER_CACHE_DIR as the way out', () => {
    const full = downloadFailure(providersFailed('ENOSPC: no space left on device, write'), attempt());
    assert.equal(full.code, 'OUTPUT_FAILED');
    assert.match(full.message, /the disk is full/);
    const denied = downloadFailure(Object.assign(new Error("EACCES: permission denied, mkdir '/opt/cache'"), { code: 'EACCES' }), attempt({ cacheDir: '/opt/cache' }));
    assert.equal(denied.code, 'OUTPUT_FAILED');
    assert.match(denied.details ?? '', /PUPPETEER_CACHE_DIR=<dir>/);
  });

  test('no unzip program: says to install one', () => {
    const error = downloadFailure(providersFailed('Extraction failed: no zip archiver is available. Install `unzip` (or `tar.exe`/Powershell on Windows), or add the optional `yauzl` dependency.'), attempt());
    assert.match(error.message, /no unzip program was found/);
    assert.match(error.details ?? '', /apt-get install -y unzip/);
  });

  test('a reason not recognised is shown as it is', () => {
    const error = downloadFailure(providersFailed('Something new went wrong'), attempt());
    assert.equal(error.code, 'DOWNLOAD_FAILED');
    assert.match(error.message, /Something new went wrong\.$/);
  });
});

describe('download progress', () => {
  const recorder = () => {
    const writes: string[] = [];
    return { writes, stream: { write: (text: string) => writes.push(text) } };
  };

  test('the texts', () => {
    assert.equal(progressLine(35_600_000, 89_000_000), 'Downloaded 40% (35.6 of 89.0 MB)');
    assert.equal(progressLine(35_600_000, 0), 'Downloaded 35.6 MB');
    assert.equal(barLine(44_500_000, 89_000_000, 10_000), '[############------------]  50%  44.5 of 89.0 MB  4.5 MB/s');
    assert.equal(barLine(1_000_000, 0, 1000), '1.0 MB  1.0 MB/s');
  });

  test('in a pipe: a line at each tenth, never more, and none of a terminal\'s codes', () => {
    const { writes, stream } = recorder();
    const progress = startDownloadProgress({ stream, interactive: false });
    for (let bytes = 0; bytes <= 1000; bytes += 7) progress.update(bytes, 1000);
    progress.update(1000, 1000);
    progress.finish();
    assert.deepEqual(writes.map((line) => /(\d+)%/.exec(line)?.[1]).map(Number), [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    assert.ok(writes.every((line) => line.endsWith('\n') && !/[\r\x1b]/.test(line)));
  });

  test('in a pipe, of unknown size: a line every 10 MB', () => {
    const { writes, stream } = recorder();
    const progress = startDownloadProgress({ stream, interactive: false });
    for (let bytes = 0; bytes <= 25_000_000; bytes += 1_000_000) progress.update(bytes, 0);
    assert.deepEqual(writes, ['Downloaded 10.0 MB\n', 'Downloaded 20.0 MB\n']);
  });

  test('on a terminal: one line redrawn at most every 100 ms, its last state kept when it ends', () => {
    const { writes, stream } = recorder();
    let clock = 0;
    const progress = startDownloadProgress({ stream, interactive: true, now: () => clock });
    progress.update(100, 1000);
    clock = 50;
    progress.update(200, 1000); // too soon: not drawn
    clock = 150;
    progress.update(300, 1000);
    progress.update(1000, 1000); // done: drawn at once
    progress.finish();
    assert.deepEqual(writes.map((text) => /(\d+)%/.exec(text)?.[1] ?? text), ['10', '30', '100', '\n']);
    assert.ok(writes.slice(0, 3).every((text) => text.startsWith('\r') && text.endsWith('\x1b[K')));
  });
});
