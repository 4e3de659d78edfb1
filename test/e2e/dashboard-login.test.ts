/**
 * `imprint login --web` end to end: the CLI as a child process asks the service for a code
 * and prints the dashboard URL; a person (Chromium) opens it, signs in with a key of the team
 * and approves, the page naming the machine that asked; the CLI receives a new key and stores
 * it as `imprint login` does, and `imprint list` then lists the team's templates with it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { BIN, cliWithDataDir, INPUTS, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const WAIT = { timeout: 90_000 };
const OUTPUT = path.join(ROOT, 'test-output', 'dashboard');

describe('imprint login --web', () => {
  const operator = cliWithDataDir();
  let serve: ServeProcess;
  let browser: Browser;
  let teamKey = '';
  const configDir = tempDir('imprint-login-config-');
  const userEnv = () => ({ IMPRINT_CONFIG_DIR: configDir, IMPRINT_DATA_DIR: tempDir(), IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined });

  before(async () => {
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    teamKey = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
    const project = tempDir('imprint-login-project-');
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"p","private":true}\n');
    fs.writeFileSync(path.join(project, 'Hello.tsx'), "export default function Hello() { return <h1>Hello</h1>; }\nHello.documentId = 'hello-web';\n");
    const published = await runCli(['publish', path.join(project, 'Hello.tsx')], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: teamKey, IMPRINT_DATA_DIR: tempDir() } });
    assert.equal(published.code, 0, published.describe());
    const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
    ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
  });

  after(async () => {
    await browser?.close();
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test('the CLI prints a code and URL, the person approves in the browser, the stored key lists the templates', async () => {
    const child = spawn(process.execPath, [BIN, 'login', '--web', '--api-url', serve.url], {
      cwd: INPUTS,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_RENDERER: 'off', ...userEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    try {
      // The URL and the code, as the person reads them in the terminal.
      const shown = await new Promise<{ url: string; code: string }>((resolve, reject) => {
        const look = () => {
          const url = /Open (http\S+) to approve/.exec(output)?.[1];
          const code = /shows the code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(output)?.[1];
          if (url && code) resolve({ url, code });
        };
        child.stderr.on('data', look);
        child.stdout.on('data', look);
        void exited.then((code) => reject(new Error(`imprint login --web exited (${code}) before showing a code:\n${output}`)));
      });
      assert.ok(shown.url.endsWith(`/dashboard/login/${shown.code}`), shown.url);

      const page = await browser.newPage();
      await page.setViewport({ width: 1100, height: 700 });
      await page.goto(shown.url);
      await page.waitForSelector('#api-key', WAIT);
      assert.match(await page.$eval('form', (form) => form.textContent ?? ''), /approve the command-line login/);
      await page.type('#api-key', teamKey);
      await page.keyboard.press('Enter');
      const machine = await page.waitForSelector('[data-testid="login-machine"]', WAIT);
      assert.equal(await machine!.evaluate((e) => e.textContent), `${os.userInfo().username}@${os.hostname()} (${process.platform}, imprint CLI)`);
      assert.equal(await page.$eval('[data-testid="login-code"]', (e) => e.textContent), shown.code);
      fs.mkdirSync(OUTPUT, { recursive: true });
      fs.writeFileSync(path.join(OUTPUT, '11-login-web-approve.png'), await page.screenshot());
      const approve = await page.$$('.approve button');
      await approve[0].click();
      await page.waitForSelector('[data-testid="login-approved"]', WAIT);
      fs.writeFileSync(path.join(OUTPUT, '12-login-web-approved.png'), await page.screenshot());
      await page.close();

      assert.equal(await exited, 0, output);
      assert.match(output, /Logged in to .* as team acme/);
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
    }

    // Stored as `imprint login` stores keys: the next command runs remote with it.
    const listed = await runCli(['list'], { env: userEnv() });
    assert.equal(listed.code, 0, listed.describe());
    assert.match(listed.stdout.toString(), /hello-web/);
    // A new key of the team, not the one used to sign in.
    const keys = JSON.parse((await operator.run(['key', 'list', '--team', 'acme', '--json'])).stdout.toString()) as unknown[];
    assert.equal(keys.length, 2);
  });

  test('a service without the dashboard says so', async () => {
    const bare = await startServeProcess({ dataDir: operator.dataDir, args: ['--no-dashboard'] });
    try {
      const page = await fetch(`${bare.url}/dashboard`);
      assert.ok(page.status === 401 || page.status === 404, `no dashboard page: ${page.status}`);
      assert.doesNotMatch(await page.text(), /<html/);
      const result = await runCli(['login', '--web', '--api-url', bare.url], { env: userEnv() });
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /no dashboard.*--no-dashboard.*imprint login --api-key/s);
    } finally {
      await bare.stop();
    }
  });
});
