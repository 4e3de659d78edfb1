/**
 * Issue 5 in embedded mode: the CLI's browser goes through egress proxies too (local-egress.ts).
 * A raw HTML page's sub-resources reach public addresses only, unless the user passes
 * --allow-local; a template reaches nothing, not even over a WebSocket. A canary on loopback
 * counts every connection.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startCanary, type Canary } from '../contract/helpers/canary.js';
import { INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

let canary: Canary;
const dir = tempDir();
before(async () => {
  canary = await startCanary();
});
after(async () => {
  await canary.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function pageFile(): string {
  const file = path.join(dir, 'page.html');
  fs.writeFileSync(
    file,
    `<!doctype html><p>local page</p><img src="${canary.url}/img"><script>fetch('${canary.url}/fetch').catch(() => {}); try { new WebSocket('${canary.url.replace('http', 'ws')}/ws'); } catch {}</script>`,
  );
  return file;
}

test('generate: a page reaches nothing on this machine by default, and says what it was refused', async () => {
  const before = canary.connections();
  const out = path.join(dir, 'default.pdf');
  const result = await runCli(['generate', '--html', pageFile(), '-o', out], { env: { IMPRINT_DATA_DIR: dir } });
  assert.equal(result.code, 0, result.describe());
  assert.match(pdfText(fs.readFileSync(out)), /local page/);
  assert.equal(canary.connections() - before, 0, `requests: ${canary.requests.join(', ')}`);
  const port = new URL(canary.url).port;
  assert.match(result.stderr, new RegExp(`127\\.0\\.0\\.1:${port}, which was refused: pass --allow-local`));
  // One line per destination, however often the page asked.
  assert.equal(result.stderr.split(`127.0.0.1:${port}, which was refused`).length - 1, 1);
});

test('generate --allow-local: the same page reaches the local server', async () => {
  const out = path.join(dir, 'local.pdf');
  const result = await runCli(['generate', '--html', pageFile(), '--allow-local', '-o', out], { env: { IMPRINT_DATA_DIR: dir } });
  assert.equal(result.code, 0, result.describe());
  assert.ok(canary.requests.some((request) => request.startsWith('GET /img')), `requests: ${canary.requests.join(', ')}`);
  assert.doesNotMatch(result.stderr, /refused/);
});

test('render: a template’s WebSocket and TURN server on loopback stay unreached', async () => {
  const before = canary.connections();
  const props = path.join(dir, 'beacon.json');
  fs.writeFileSync(props, JSON.stringify({ canaryUrl: canary.url }));
  const out = path.join(dir, 'beacon.pdf');
  const result = await runCli(['render', path.join(INPUTS, 'test', 'contract', 'fixtures', 'Beacon.tsx'), '--props', props, '-o', out], { env: { IMPRINT_DATA_DIR: dir } });
  assert.equal(result.code, 0, result.describe());
  assert.match(pdfText(fs.readFileSync(out)), /beacon done/);
  assert.equal(canary.connections() - before, 0);
});
