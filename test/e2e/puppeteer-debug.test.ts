/**
 * Imprint connects Puppeteer to Chromium through its CDP connector rather than the package's
 * entry (core/render/launch-browser.ts), passing Puppeteer's logger itself: Puppeteer's own logs
 * still appear with NODE_DEBUG=puppeteer:* (Puppeteer 25 logs through util.debuglog), the
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

  test('NODE_DEBUG=puppeteer:protocol:* logs every message sent and received, and the PDF is made', async () => {
    const result = await generate('logged.pdf', { NODE_DEBUG: 'puppeteer:protocol:*' });
    assert.equal(result.code, 0, result.describe());
    // util.debuglog's lines: the section in capitals, the pid, then the message.
    assert.match(result.stderr, /^PUPPETEER:PROTOCOL:SEND ► \d+: \{/m, result.stderr.slice(0, 2000));
    assert.match(result.stderr, /^PUPPETEER:PROTOCOL:RECV ◀ \d+: \{/m);
    assert.equal(result.stderr.match(/"method":"Page\.printToPDF"/g)?.length, 1, 'the one print sent');
    assert.match(pdfText(fs.readFileSync(path.join(dir, 'logged.pdf'))), /Debug logs/);
  });

  test('without NODE_DEBUG nothing of Puppeteer is logged', async () => {
    const result = await generate('quiet.pdf', { NODE_DEBUG: undefined });
    assert.equal(result.code, 0, result.describe());
    assert.doesNotMatch(result.stderr, /puppeteer:/i);
    assert.match(pdfText(fs.readFileSync(path.join(dir, 'quiet.pdf'))), /Debug logs/);
  });
});
