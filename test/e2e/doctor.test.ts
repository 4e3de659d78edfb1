/**
 * `imprint doctor` as a user runs it: every check on this machine, a missing browser, a data
 * folder that cannot be made, and a login whose service is down, refuses the key or takes it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

interface Report {
  ok: boolean;
  version: string;
  checks: { id: string; status: string; detail: string; fix?: string; code?: string }[];
}

const parse = (stdout: Buffer): Report => JSON.parse(stdout.toString()) as Report;
const byId = (report: Report, id: string) => report.checks.find((check) => check.id === id)!;
const user = (env: Record<string, string | undefined> = {}) => ({ IMPRINT_DATA_DIR: tempDir('imprint-doctor-'), IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, ...env });

describe('imprint doctor', () => {
  test('on this machine everything a render needs is there: exit 0, the browser with its version', { timeout: 120_000 }, async () => {
    const result = await runCli(['doctor', '--json'], { env: user() });
    assert.equal(result.code, 0, result.describe());
    const report = parse(result.stdout);
    assert.equal(report.ok, true);
    assert.deepEqual(report.checks.map((check) => check.id), ['node', 'browser', 'fonts', 'poppler', 'data-folder', 'sqlite', 'renderer', 'service']);
    assert.match(byId(report, 'browser').detail, /Chrom(e|ium) \d+/);
    assert.equal(byId(report, 'sqlite').status, 'ok');
    assert.equal(byId(report, 'service').status, 'info');

    const text = await runCli(['doctor'], { env: user() });
    assert.equal(text.code, 0, text.describe());
    assert.match(text.stdout.toString(), /Browser\s+Chrom/);
  });

  test('no browser: exit 1, the failure says how to install one', { timeout: 120_000 }, async () => {
    const result = await runCli(['doctor', '--json', '--browser', '/nonexistent/chrome'], { env: user() });
    assert.equal(result.code, 1, result.describe());
    const browser = byId(parse(result.stdout), 'browser');
    assert.equal(browser.status, 'fail');
    assert.equal(browser.code, 'BROWSER_NOT_FOUND');
    assert.match(browser.fix ?? '', /`imprint browser install`.*apt-get install -y chromium/);
    assert.match(result.stderr, /1 of 8 checks failed: Browser/);

    const text = await runCli(['doctor', '--browser', '/nonexistent/chrome'], { env: user() });
    assert.equal(text.code, 1);
    assert.match(text.stdout.toString(), /fix: Install one with `imprint browser install` \(a headless Chrome for this user, no root needed\)/);
  });

  test('a browser that does not start: what it said, e.g. the shared library it misses', { timeout: 120_000 }, async () => {
    const dir = tempDir('imprint-doctor-');
    const broken = path.join(dir, 'chrome-headless-shell');
    fs.writeFileSync(broken, "#!/bin/sh\necho 'chrome-headless-shell: error while loading shared libraries: libnss3.so: cannot open shared object file' >&2\nexit 127\n", { mode: 0o755 });
    const result = await runCli(['doctor', '--json', '--browser', broken], { env: user() });
    assert.equal(result.code, 1, result.describe());
    const browser = byId(parse(result.stdout), 'browser');
    assert.equal(browser.code, 'BROWSER_FAILED');
    assert.match(browser.detail, /does not start: chrome-headless-shell: error while loading shared libraries: libnss3\.so/);
    assert.match(browser.fix ?? '', /`imprint browser install`/);
  });

  test('a data folder under a file: exit 1', { timeout: 120_000 }, async () => {
    const dir = tempDir('imprint-doctor-');
    fs.writeFileSync(path.join(dir, 'file'), '');
    const result = await runCli(['doctor', '--json'], { env: user({ IMPRINT_DATA_DIR: path.join(dir, 'file', 'data') }) });
    assert.equal(result.code, 1, result.describe());
    assert.equal(byId(parse(result.stdout), 'data-folder').status, 'fail');
  });

  describe('when logged in', () => {
    const serviceData = tempDir('imprint-doctor-serve-');
    const operator = cliWithDataDir(serviceData);
    let serve: ServeProcess;
    let key: string;

    before(async () => {
      assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
      const created = await operator.run(['key', 'create', '--team', 'acme']);
      assert.equal(created.code, 0, created.describe());
      key = created.stdout.toString().trim();
      serve = await startServeProcess({ dataDir: serviceData });
    });
    after(async () => {
      await serve?.stop();
    });

    test('a service that answers and takes the key: ok, with the team', { timeout: 120_000 }, async () => {
      const result = await runCli(['doctor', '--json'], { env: user({ IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key }) });
      assert.equal(result.code, 0, result.describe());
      const service = byId(parse(result.stdout), 'service');
      assert.equal(service.status, 'ok');
      assert.match(service.detail, /team acme/);
    });

    test('a key the service refuses: exit 1, UNAUTHORIZED, with the fix', { timeout: 120_000 }, async () => {
      const result = await runCli(['doctor', '--json'], { env: user({ IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: 'imp_wrong' }) });
      assert.equal(result.code, 1, result.describe());
      const service = byId(parse(result.stdout), 'service');
      assert.equal(service.code, 'UNAUTHORIZED');
      assert.match(service.fix ?? '', /imprint login/);
    });

    test('a service that does not answer: exit 1, REMOTE_UNREACHABLE', { timeout: 120_000 }, async () => {
      const port = await freePort();
      const result = await runCli(['doctor', '--json'], { env: user({ IMPRINT_API_URL: `http://127.0.0.1:${port}`, IMPRINT_API_KEY: key }) });
      assert.equal(result.code, 1, result.describe());
      assert.equal(byId(parse(result.stdout), 'service').code, 'REMOTE_UNREACHABLE');
    });
  });
});
