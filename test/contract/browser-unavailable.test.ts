/**
 * A service whose machine has no browser starts (it says where it listens), but cannot render:
 * each render answers 503 BROWSER_UNAVAILABLE with a message that says how to install one, the
 * way /healthz says it, and nothing is counted. The remote CLI reports the same message.
 * "No browser" is a browser set explicitly that is not there: the same search and the same
 * error as a machine without one (Chromium is installed on the test machine).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const MISSING_BROWSER = '/nonexistent/chromium';
const dataDir = tempDir('imprint-nobrowser-');
const cli = cliWithDataDir(dataDir);
let service: ServeProcess | undefined;
let key = '';

before(async () => {
  assert.equal((await cli.run(['team', 'create', 'acme', '--limit', '10'])).code, 0);
  const created = await cli.run(['key', 'create', '--team', 'acme']);
  assert.equal(created.code, 0, created.describe());
  key = created.stdout.toString().trim();
  service = await startServeProcess({ dataDir, env: { IMPRINT_BROWSER: MISSING_BROWSER } });
});

after(async () => {
  await service?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a render with no browser answers 503 BROWSER_UNAVAILABLE, saying how to install one; nothing is counted', { timeout: 120_000 }, async () => {
  const answer = await request(`${service!.url}/api/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ html: '<p>hello</p>' }),
  });
  const body = (await answer.body.json()) as { error: string; code: string };
  assert.equal(answer.statusCode, 503, JSON.stringify(body));
  assert.equal(body.code, 'BROWSER_UNAVAILABLE');
  assert.match(body.error, /no browser to render with/);
  assert.match(body.error, /apt-get install -y chromium/);
  assert.match(body.error, /IMPRINT_BROWSER=<path>/);
  assert.ok(body.error.includes(MISSING_BROWSER), body.error);

  const me = await request(`${service!.url}/api/me`, { headers: { authorization: `Bearer ${key}` } });
  const mine = (await me.body.json()) as { team: { usedThisMonth: number } };
  assert.equal(me.statusCode, 200);
  assert.equal(mine.team.usedThisMonth, 0, JSON.stringify(mine));

  const health = await request(`${service!.url}/healthz`);
  const healthBody = (await health.body.json()) as { status: string; browser: string; error: string };
  assert.equal(health.statusCode, 503);
  assert.equal(healthBody.status, 'unavailable');
  assert.match(healthBody.error, /apt-get install -y chromium/);
  assert.doesNotMatch(healthBody.error, /\.\./, 'one period at the end of a sentence');
});

test('the remote CLI shows the service\'s message and exits 1', { timeout: 120_000 }, async () => {
  const page = path.join(dataDir, 'page.html');
  fs.writeFileSync(page, '<p>hello</p>');
  const result = await cli.run(['generate', '--html', page, '-o', path.join(dataDir, 'out.pdf'), '--remote', '--api-url', service!.url, '--api-key', key]);
  assert.equal(result.code, 1, result.describe());
  assert.match(result.stderr, /no browser to render with/, result.describe());
  assert.ok(!fs.existsSync(path.join(dataDir, 'out.pdf')), 'no partial output');
});
