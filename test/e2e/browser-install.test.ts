/**
 * `imprint browser install` as a user without a usable system browser runs it: a fresh HOME,
 * the download from a loopback mirror of Chrome for Testing (test/helpers/browser-mirror.ts:
 * no internet here), progress on stderr, the browser in Puppeteer's cache, a second install
 * that downloads nothing, then a render with no --browser and no IMPRINT_BROWSER that the
 * installed browser prints. Then every way a download fails (404, a closed port, a cut
 * connection, a file that is not a zip or a zip of something else, a cache folder that cannot
 * be made): a clear error and exit 1, and nothing left in the cache.
 *
 * This machine also has /usr/bin/chromium, which the search tries after the installed build;
 * the installed "browser" records each launch (it is a script in front of that Chromium), so
 * the render proves that it was the one Imprint used.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXAMPLES, runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { HEADLESS_SHELL_BUILD, INSTALLED_EXECUTABLE, startBrowserMirror, type BrowserMirror } from '../helpers/browser-mirror.js';
import { pdfText } from '../helpers/pdf.js';

const RUN_MS = 120_000;
let mirror: BrowserMirror;
const made: string[] = [];

/** A user of their own: an empty HOME (so Puppeteer's cache is $HOME/.cache/puppeteer) and data folder. */
function newUser() {
  const home = tempDir('imprint-browser-home-');
  const dataDir = tempDir('imprint-browser-data-');
  made.push(home, dataDir);
  const env = {
    HOME: home,
    IMPRINT_DATA_DIR: dataDir,
    // Nothing of the developer's that names a browser or a download source.
    IMPRINT_BROWSER: undefined,
    PUPPETEER_EXECUTABLE_PATH: undefined,
    PUPPETEER_CACHE_DIR: undefined,
    PUPPETEER_DOWNLOAD_BASE_URL: undefined,
    PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL: undefined,
  };
  return { home, cache: path.join(home, '.cache', 'puppeteer'), env, run: (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { timeoutMs: RUN_MS, env: { ...env, ...extra } }) };
}

const launches = () => (fs.existsSync(mirror.launches) ? fs.readFileSync(mirror.launches, 'utf8').split('\n').filter(Boolean).length : 0);

/** Every file and folder under `dir`, relative to it. */
function treeOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

function failedClearly(result: CliResult, code: number, message: RegExp): void {
  assert.equal(result.code, code, result.describe());
  assert.match(result.stderr, message, result.describe());
  assert.doesNotMatch(result.stderr, /Unexpected error|\n\s+at /, `no stack trace: ${result.describe()}`);
  assert.equal(result.stdout.length, 0, 'no path on stdout');
}

before(async () => {
  mirror = await startBrowserMirror();
});

after(async () => {
  await mirror?.close();
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('imprint browser install from a mirror', () => {
  const user = newUser();
  const executable = path.join(user.cache, INSTALLED_EXECUTABLE);

  test('downloads with progress lines into Puppeteer\'s cache, and prints the executable', async () => {
    const result = await user.run(['browser', 'install', '--base-url', `${mirror.base('ok')}/`]);
    assert.equal(result.code, 0, result.describe());
    assert.equal(result.stdout.toString(), `${executable}\n`);
    assert.match(result.stderr, new RegExp(`Downloading Chrome Headless Shell ${HEADLESS_SHELL_BUILD.replaceAll('.', '\\.')} from ${mirror.base('ok')}/`));
    // Piped, so plain lines: one per tenth of the 3 MB archive, in order, up to all of it.
    const percents = [...result.stderr.matchAll(/^Downloaded (\d+)% \([\d.]+ of ([\d.]+) MB\)$/gm)].map((line) => Number(line[1]));
    assert.equal(percents.length, 10, result.describe());
    assert.deepEqual([...percents].sort((a, b) => a - b), percents, 'increasing');
    assert.equal(percents.at(-1), 100);
    assert.doesNotMatch(result.stderr, /\r|\x1b\[/, 'no terminal redraws in a pipe');
    assert.match(result.stderr, /Unpacking into .*\.cache\/puppeteer\n[\s\S]*Installed Chrome Headless Shell/);

    fs.accessSync(executable, fs.constants.X_OK);
    assert.match(fs.readFileSync(executable, 'utf8'), /^#!\/bin\/sh/);
    // Only the browser's folder: no archive, no staging folder left beside it.
    assert.deepEqual(fs.readdirSync(user.cache), ['chrome-headless-shell']);
    assert.deepEqual(fs.readdirSync(path.join(user.cache, 'chrome-headless-shell')), [`linux-${HEADLESS_SHELL_BUILD}`]);
  });

  test('a second install says it is there and downloads nothing (the mirror given by the environment)', async () => {
    const asked = mirror.requests.length;
    const result = await user.run(['browser', 'install'], { PUPPETEER_DOWNLOAD_BASE_URL: mirror.base('ok') });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stderr, /Chrome Headless Shell [\d.]+ is already installed/);
    assert.equal(result.stdout.toString(), `${executable}\n`);
    assert.equal(mirror.requests.length, asked, 'no request to the mirror');
  });

  test('imprint finds it with no --browser: browser path, doctor, and a render that it prints', { timeout: RUN_MS * 3 }, async () => {
    const found = await user.run(['browser', 'path']);
    assert.equal(found.code, 0, found.describe());
    assert.equal(found.stdout.toString(), `${executable}\n`, 'the installed build comes before the system Chromium');

    const doctor = await user.run(['doctor', '--json']);
    const browser = JSON.parse(doctor.stdout.toString()).checks.find((check: { id: string }) => check.id === 'browser');
    assert.equal(browser.status, 'ok', doctor.describe());
    assert.ok(browser.detail.includes(executable), browser.detail);

    const before = launches();
    const pdf = path.join(user.home, 'invoice.pdf');
    const invoice = path.join(EXAMPLES, 'invoice');
    const props = JSON.parse(fs.readFileSync(path.join(invoice, 'props.json'), 'utf8'));
    const render = await user.run(['render', path.join(invoice, 'Invoice.tsx'), '--props', path.join(invoice, 'props.json'), '-o', pdf]);
    assert.equal(render.code, 0, render.describe());
    assert.match(pdfText(pdf), new RegExp(props.invoiceNo));
    assert.ok(launches() > before, 'the installed browser printed it');
  });

  test('browser list shows it and says imprint uses it', async () => {
    const result = await user.run(['browser', 'list', '--json']);
    assert.equal(result.code, 0, result.describe());
    const listed = JSON.parse(result.stdout.toString());
    assert.equal(listed.used, executable);
    assert.deepEqual(listed.browsers.map((b: { browser: string; buildId: string; runnable: boolean }) => [b.browser, b.buildId, b.runnable]), [['chrome-headless-shell', HEADLESS_SHELL_BUILD, true]]);
  });

  test('a browser folder without its executable (an install cut short) is replaced', async () => {
    const other = newUser();
    const folder = path.dirname(path.dirname(path.join(other.cache, INSTALLED_EXECUTABLE)));
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'leftover'), '');
    const result = await other.run(['browser', 'install', '--base-url', mirror.base('ok')]);
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stderr, /in place of an install that had not finished/);
    fs.accessSync(path.join(other.cache, INSTALLED_EXECUTABLE), fs.constants.X_OK);
    assert.ok(!fs.existsSync(path.join(folder, 'leftover')));
  });
});

describe('imprint browser install when the download fails', () => {
  const hints = /--base-url[\s\S]*--browser <path> or IMPRINT_BROWSER/;

  test('the mirror answers 404: the URL, the status, how to fix it; HOME left as it was', async () => {
    const user = newUser();
    const result = await user.run(['browser', 'install', '--base-url', mirror.base('missing')]);
    failedClearly(result, 1, new RegExp(`${mirror.base('missing')}/${HEADLESS_SHELL_BUILD.replaceAll('.', '\\.')}/\\S+\\.zip answered HTTP 404`));
    assert.match(result.stderr, hints);
    assert.deepEqual(treeOf(user.home), [], 'no cache folder, no half-installed browser');
  });

  test('nothing listens at the mirror\'s address: says it could not connect, and how to get around it', async () => {
    const user = newUser();
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await user.run(['browser', 'install'], { PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL: `http://127.0.0.1:${port}` });
    failedClearly(result, 1, new RegExp(`Could not download Chrome Headless Shell [\\d.]+ from http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`));
    assert.match(result.stderr, /NODE_USE_ENV_PROXY=1/);
    assert.match(result.stderr, /from PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL/);
    assert.deepEqual(treeOf(user.home), []);
  });

  test('the connection closes halfway: exit 1, no archive or browser folder left', async () => {
    const user = newUser();
    fs.mkdirSync(user.cache, { recursive: true });
    const result = await user.run(['browser', 'install', '--base-url', mirror.base('cut')]);
    failedClearly(result, 1, /Could not download Chrome Headless Shell [\d.]+ from http:\/\/127\.0\.0\.1:\d+: expected \d+ bytes, received \d+ bytes/);
    assert.match(result.stderr, hints);
    assert.deepEqual(treeOf(user.cache), [], 'the cache folder, which was there before, is as it was');
  });

  test('the mirror serves something that is not a zip: says it could not unpack it', async () => {
    const user = newUser();
    const result = await user.run(['browser', 'install', '--base-url', mirror.base('garbage')]);
    failedClearly(result, 1, /Could not unpack Chrome Headless Shell [\d.]+ downloaded from \S+: Extraction failed/);
    assert.match(result.stderr, /must serve the files of https:\/\/storage\.googleapis\.com\/chrome-for-testing-public/);
    assert.deepEqual(treeOf(user.home), []);
  });

  test('the mirror serves a zip without the browser in it: says so, installs nothing', async () => {
    const user = newUser();
    const result = await user.run(['browser', 'install', '--base-url', mirror.base('other-zip')]);
    failedClearly(result, 1, /The archive from \S+ unpacked without chrome-headless-shell-\S+\/chrome-headless-shell: it is not Chrome Headless Shell/);
    assert.deepEqual(treeOf(user.home), []);
  });

  test('a cache folder that cannot be made: says which, and how to install elsewhere', async () => {
    const user = newUser();
    const file = path.join(user.home, 'a-file');
    fs.writeFileSync(file, '');
    const result = await user.run(['browser', 'install', '--base-url', mirror.base('ok')], { PUPPETEER_CACHE_DIR: path.join(file, 'puppeteer') });
    failedClearly(result, 1, /Could not install Chrome Headless Shell [\d.]+ into .*a-file\/puppeteer: ENOTDIR/);
    assert.match(result.stderr, /PUPPETEER_CACHE_DIR=<dir>/);
  });

  test('a --base-url that is not an http URL is a usage error (exit 2), before any download', async () => {
    const user = newUser();
    const result = await user.run(['browser', 'install', '--base-url', 'ftp://mirror.example/cft']);
    failedClearly(result, 2, /--base-url must be an http or https URL/);
  });
});
