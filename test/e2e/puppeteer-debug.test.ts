/**
 * The build gives Puppeteer's debug helper a factory that remembers its loggers
 * (scripts/puppeteer-debug.js): Puppeteer's own logs still appear with DEBUG=puppeteer:*, the
 * protocol's messages among them, and nothing is logged without it. The built CLI, spawned.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

describe("Puppeteer's debug logs in the built CLI", () => {
  const dir = tempDir('imprint-debug-');
  const html = path.join(dir, 'page.html');
  fs.writeFileSync(html, '<p>Debug logs</p>');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const generate = (out: string, env: Record<string, string | undefined>) =>
    runCli(['generate', '--html', html, '-o', path.join(dir, out), '--embedded', '--data-dir', dir], { env, timeoutMs: 120_000 });

  test('DEBUG=puppeteer:protocol:* logs every message sent and received, and the PDF is made', async () => {
    const result = await generate('logged.pdf', { DEBUG: 'puppeteer:protocol:*', DEBUG_COLORS: '0' });
    assert.equal(result.code, 0, result.describe());
    // Each message is logged as Puppeteer's argument list: the prefix, then the message on its own line.
    assert.match(result.stderr, /puppeteer:protocol:SEND ► /, result.stderr.slice(0, 2000));
    assert.match(result.stderr, /puppeteer:protocol:RECV ◀ /);
    assert.equal(result.stderr.match(/"method":"Page\.printToPDF"/g)?.length, 1, 'the one print sent');
    assert.match(pdfText(fs.readFileSync(path.join(dir, 'logged.pdf'))), /Debug logs/);
  });

  test('without DEBUG nothing of Puppeteer is logged', async () => {
    const result = await generate('quiet.pdf', { DEBUG: undefined });
    assert.equal(result.code, 0, result.describe());
    assert.doesNotMatch(result.stderr, /puppeteer:/);
    assert.match(pdfText(fs.readFileSync(path.join(dir, 'quiet.pdf'))), /Debug logs/);
  });
});
