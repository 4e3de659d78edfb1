/**
 * Issue 41, cases 9 and 12, as users meet them: a Node app that gives the installed `imprint` a
 * malformed API URL or a key pasted with its line break gets the documented ImprintError (code
 * USAGE, saying what to do, not repeating the key), not undici's or Node's own error; a key for
 * plain http to another machine is warned about once on stderr (Node's warning, code
 * IMPRINT_PLAIN_HTTP_KEY); and `imprint doctor` and the CLI's errors never show the
 * user:password typed into an API URL.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { BIN, runCli, tempDir } from '../helpers/cli.js';
import { run } from './package-kit.js';

const KEY = 'imp_LeakCanary0123456789abcdef';

const APP = `import { createImprint, ImprintError } from 'imprint';
const cases = {
  'no scheme': { apiUrl: 'pdf.example.org', apiKey: '${KEY}' },
  'ftp': { apiUrl: 'ftp://pdf.example.org', apiKey: '${KEY}' },
  'a key with its line break': { apiUrl: 'https://pdf.example.org', apiKey: '${KEY}\\r\\nX-Injected: 1' },
};
const seen = {};
for (const [what, options] of Object.entries(cases)) {
  try {
    createImprint(options);
    seen[what] = { made: true };
  } catch (error) {
    seen[what] = { imprintError: error instanceof ImprintError, code: error.code, message: error.message };
  }
}
const plain = createImprint({ apiUrl: 'http://pdf.internal:8080', apiKey: '${KEY}' });
await plain.close();
createImprint({ apiUrl: 'http://pdf.internal:8080', apiKey: '${KEY}' });
console.log(JSON.stringify(seen));
`;

test('a library user: a bad URL or key is an ImprintError USAGE at createImprint; plain http to another machine warned once', { timeout: 120_000 }, async () => {
  const app = tempDir('imprint-lib-errors-');
  try {
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    fs.mkdirSync(path.join(app, 'node_modules'));
    fs.symlinkSync(path.resolve(path.dirname(BIN), '..'), path.join(app, 'node_modules', 'imprint'), 'dir');
    fs.writeFileSync(path.join(app, 'app.mjs'), APP);
    const ran = await run(process.execPath, ['app.mjs'], { cwd: app, env: { ...process.env, IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined }, timeoutMs: 60_000 });
    assert.equal(ran.code, 0, ran.describe());
    const seen = JSON.parse(ran.stdout) as Record<string, { imprintError?: boolean; code?: string; message?: string }>;
    assert.deepEqual(seen['no scheme']?.code, 'USAGE', ran.stdout);
    assert.match(seen['no scheme']!.message!, /Invalid API URL "pdf\.example\.org": give an absolute address/);
    assert.match(seen['ftp']!.message!, /must start with http:\/\/ or https:\/\//);
    assert.match(seen['a key with its line break']!.message!, /The API key holds a line break/);
    for (const outcome of Object.values(seen)) assert.equal(outcome.imprintError, true, ran.stdout);
    assert.ok(!ran.stdout.includes('LeakCanary'), 'no message repeats the key');
    const warnings = ran.stderr.match(/ImprintWarning: Imprint's API key is sent over plain http to pdf\.internal:8080/g) ?? [];
    assert.equal(warnings.length, 1, ran.stderr);
    assert.ok(!ran.stderr.includes('LeakCanary'), ran.stderr);
  } finally {
    fs.rmSync(app, { recursive: true, force: true });
  }
});

test("imprint doctor and a failing command never show the API URL's user:password", { timeout: 120_000 }, async () => {
  // A port that answers nothing: the CLI's error names the URL it could not reach.
  const closed = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const env = { IMPRINT_API_URL: `http://bob:hunter2@127.0.0.1:${closed}`, IMPRINT_API_KEY: KEY };
  const doctor = await runCli(['doctor'], { env, timeoutMs: 90_000 });
  const said = `${doctor.stdout.toString()}${doctor.stderr}`;
  assert.match(said, new RegExp(`127\\.0\\.0\\.1:${closed}`), doctor.describe());
  assert.ok(!said.includes('hunter2') && !said.includes('LeakCanary'), doctor.describe());
  const list = await runCli(['list'], { env, timeoutMs: 60_000 });
  assert.notEqual(list.code, 0, list.describe());
  assert.ok(!`${list.stdout.toString()}${list.stderr}`.includes('hunter2'), list.describe());
  const broken = await runCli(['list'], { env: { ...env, IMPRINT_API_URL: `http://127.0.0.1:${closed}`, IMPRINT_API_KEY: `${KEY}\u0001` }, timeoutMs: 60_000 });
  assert.equal(broken.code, 2, broken.describe());
  assert.match(broken.stderr, /The API key holds a line break, a space at an end or a control character/);
  assert.ok(!broken.stderr.includes('LeakCanary'), broken.describe());
});
