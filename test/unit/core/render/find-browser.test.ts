import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { PUPPETEER_REVISIONS } from 'puppeteer-core/internal/revisions.js';
import { findBrowser, skipLauncherScript } from '../../../../src/core/render/find-browser.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-find-browser-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string, mode = 0o755): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content, { mode });
  return target;
}

test('a launcher script is skipped for the binary it would exec', () => {
  const binary = file('chromium-bin', '\x7fELF...');
  const script = file('chromium', '#!/bin/sh\nexec chromium-bin "$@"\n');
  assert.equal(skipLauncherScript(script, { [script]: binary }), binary);
});

test('a launcher path that is itself a binary, or whose binary is missing, is used as found', () => {
  const binary = file('real-binary', '\x7fELF...');
  const other = file('other-binary', '\x7fELF...');
  assert.equal(skipLauncherScript(binary, { [binary]: other }), binary);
  const script = file('script-without-binary', '#!/bin/sh\n');
  assert.equal(skipLauncherScript(script, { [script]: path.join(dir, 'missing') }), script);
  const notExecutable = file('not-executable', '\x7fELF...', 0o644);
  assert.equal(skipLauncherScript(script, { [script]: notExecutable }), script);
});

test('an explicit path is used as given, even a launcher script', async () => {
  const script = file('explicit-launcher', '#!/bin/sh\n');
  assert.equal(await findBrowser({ explicitPath: script }), script);
});

test('on this machine the system Chromium resolves to a binary, not a shell script', async () => {
  const found = await findBrowser({});
  const head = fs.readFileSync(found).subarray(0, 2).toString('latin1');
  assert.notEqual(head, '#!', `${found} is a script`);
});

describe('the order of the search with a Puppeteer cache', () => {
  const build = PUPPETEER_REVISIONS['chrome-headless-shell'];
  const platformFolder = process.arch === 'arm64' ? 'linux-arm64' : 'linux64';
  const platform = process.arch === 'arm64' ? 'linux_arm' : 'linux';
  /** A cache holding an executable at `relative`, as @puppeteer/browsers lays it out. */
  function cacheWith(name: string, relative: string, mode = 0o755): { cacheDir: string; executable: string } {
    const cacheDir = path.join(dir, name);
    const executable = path.join(cacheDir, relative);
    fs.mkdirSync(path.dirname(executable), { recursive: true });
    fs.writeFileSync(executable, '\x7fELF...', { mode });
    return { cacheDir, executable };
  }
  const pinned = path.join('chrome-headless-shell', `${platform}-${build}`, `chrome-headless-shell-${platformFolder}`, 'chrome-headless-shell');
  const system = () => file('system-chrome', '\x7fELF...');

  test('the build `imprint browser install` puts there comes before the system browser', { skip: process.platform !== 'linux' }, async () => {
    const { cacheDir, executable } = cacheWith('cache-pinned', pinned);
    assert.equal(await findBrowser({ puppeteerCacheDir: cacheDir, systemPaths: [system()] }), executable);
  });

  test('an explicit path comes before it', { skip: process.platform !== 'linux' }, async () => {
    const { cacheDir } = cacheWith('cache-explicit', pinned);
    const explicit = file('explicit-chrome', '\x7fELF...');
    assert.equal(await findBrowser({ explicitPath: explicit, puppeteerCacheDir: cacheDir, systemPaths: [system()] }), explicit);
  });

  test('another build in the cache, or the pinned one not executable, comes after the system browser', { skip: process.platform !== 'linux' }, async () => {
    const other = cacheWith('cache-other', path.join('chrome-headless-shell', `${platform}-120.0.6099.109`, `chrome-headless-shell-${platformFolder}`, 'chrome-headless-shell'));
    const systemChrome = system();
    assert.equal(await findBrowser({ puppeteerCacheDir: other.cacheDir, systemPaths: [systemChrome] }), systemChrome);
    assert.equal(await findBrowser({ puppeteerCacheDir: other.cacheDir, systemPaths: [] }), other.executable, 'still found when there is no system browser');
    const broken = cacheWith('cache-broken', pinned, 0o644);
    assert.equal(await findBrowser({ puppeteerCacheDir: broken.cacheDir, systemPaths: [systemChrome] }), systemChrome);
  });

  test('with none anywhere, the error names `imprint browser install`', async () => {
    await assert.rejects(findBrowser({ puppeteerCacheDir: path.join(dir, 'no-cache'), systemPaths: [] }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'BROWSER_NOT_FOUND');
      assert.match(error.message, /`imprint browser install`/);
      return true;
    });
  });
});
