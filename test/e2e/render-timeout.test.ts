/**
 * The render deadline is a setting (issue 40): `--timeout <duration>` on generate and render,
 * IMPRINT_TIMEOUT for every call, in the CLI's own process and on the warm renderer. A page
 * that takes longer than the deadline fails with RENDER_TIMEOUT (exit 1) and a message naming
 * the flag; a longer deadline lets the same page finish. The slow part is a real HTTP server on
 * 127.0.0.1 that answers an image only after a pause.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

const SLOW_MS = 3_000;
const root = tempDir('imprint-render-timeout-');
const runDir = path.join(root, 'run');
const page = path.join(root, 'page.html');
const pending = new Set<NodeJS.Timeout>();

const server = http.createServer((request, response) => {
  // A 1x1 GIF, after a pause: the page's load event waits for it.
  const timer = setTimeout(() => {
    pending.delete(timer);
    response.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'));
  }, SLOW_MS);
  pending.add(timer);
  request.on('close', () => {
    clearTimeout(timer);
    pending.delete(timer);
  });
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fs.writeFileSync(page, `<!doctype html><h1>Slow page</h1><img src="http://127.0.0.1:${port}/slow.gif">`);
});

after(async () => {
  await runCli(['renderer', 'stop', '--all'], { env: { IMPRINT_RUNTIME_DIR: runDir, IMPRINT_DATA_DIR: path.join(root, 'data') } });
  for (const timer of pending) clearTimeout(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

const run = (args: string[], options: CliOptions = {}) =>
  runCli(args, { cwd: root, timeoutMs: 90_000, ...options, env: { IMPRINT_DATA_DIR: path.join(root, 'data'), IMPRINT_RUNTIME_DIR: runDir, ...options.env } });

function assertTimedOut(result: Awaited<ReturnType<typeof runCli>>, deadline: string) {
  assert.equal(result.code, 1, result.describe());
  assert.match(result.stderr, new RegExp(`did not finish within ${deadline}`), result.describe());
  assert.match(result.stderr, /\[RENDER_TIMEOUT\]/, result.describe());
  assert.match(result.stderr, /--timeout <duration>/, 'the message names the flag that gives it longer');
}

test('--timeout: shorter than the page fails with RENDER_TIMEOUT naming the flag; longer lets it finish', { timeout: 5 * 60_000 }, async () => {
  const out = path.join(root, 'flag.pdf');
  assertTimedOut(await run(['generate', '--html', page, '--allow-local', '--timeout', '1s', '-o', out]), '1 s');
  assert.equal(fs.existsSync(out), false, 'nothing written');

  const finished = await run(['generate', '--html', page, '--allow-local', '--timeout', '40s', '-o', out]);
  assert.equal(finished.code, 0, finished.describe());
  assert.match(pdfText(fs.readFileSync(out)), /Slow page/);
});

test('IMPRINT_TIMEOUT sets it for every call, on the warm renderer too (a renderer of its own)', { timeout: 5 * 60_000 }, async () => {
  const env = { IMPRINT_RENDERER: 'on', IMPRINT_TIMEOUT: '1500ms' };
  assertTimedOut(await run(['generate', '--html', page, '--allow-local', '-o', path.join(root, 'env.pdf')], { env }), '1.5 s');
  const status = await run(['renderer', 'status', '--json', '--allow-local'], { env });
  assert.equal(JSON.parse(status.stdout.toString()).running, true, 'the call went to the warm renderer');

  const out = path.join(root, 'env-long.pdf');
  const finished = await run(['generate', '--html', page, '--allow-local', '-o', out], { env: { ...env, IMPRINT_TIMEOUT: '40s' } });
  assert.equal(finished.code, 0, finished.describe());
  assert.match(pdfText(fs.readFileSync(out)), /Slow page/);
});

test('a bad value is a usage error naming the flag or the variable; remote mode refuses the flag', { timeout: 2 * 60_000 }, async () => {
  const flag = await run(['generate', '--html', page, '--timeout', 'soon']);
  assert.equal(flag.code, 2, flag.describe());
  assert.match(flag.stderr, /Invalid render timeout "soon"/);

  const variable = await run(['generate', '--html', page], { env: { IMPRINT_TIMEOUT: 'soon' } });
  assert.equal(variable.code, 2, variable.describe());
  assert.match(variable.stderr, /IMPRINT_TIMEOUT/);

  const remote = await run(['render', 'invoice', '--timeout', '5m', '--remote', '--api-url', 'http://127.0.0.1:9', '--api-key', 'imp_test']);
  assert.equal(remote.code, 2, remote.describe());
  assert.match(remote.stderr, /--render-timeout/);
});
