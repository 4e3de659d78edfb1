/**
 * The page runtime prints as soon as React has committed, fonts have loaded and images have
 * decoded, without waiting for animation frames (src/runtime/mount.tsx). An image that only
 * CSS refers to is in no <img> it waits for: shown here to be printed all the same, on cold
 * and warm pages alike, where a page renders documents with and without it in turn.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

const TEMPLATE = path.join(INPUTS, 'test', 'fixtures', 'css-background', 'Backgrounds.tsx');
const imageCount = (file: string) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2;

test('CSS background images are printed in every document that has them', async () => {
  const dir = tempDir();
  const rows = Array.from({ length: 16 }, (_, i) => JSON.stringify({ label: `row${i + 1}`, tile: i % 2 === 1 })).join('\n');
  const result = await runCli(['render', TEMPLATE, '--batch', '-', '--out-dir', dir, '--name', '{{label}}.pdf', '--concurrency', '2'], { stdin: rows, env: { IMPRINT_DATA_DIR: dir } });
  assert.equal(result.code, 0, result.describe());
  for (let i = 1; i <= 16; i++) {
    const file = path.join(dir, `row${i}.pdf`);
    assert.match(pdfText(fs.readFileSync(file)), new RegExp(`row${i}\\b`));
    assert.equal(imageCount(file), i % 2 === 0 ? 1 : 0, `row${i}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
