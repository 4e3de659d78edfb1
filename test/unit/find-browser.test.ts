import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findBrowser, skipLauncherScript } from '../../src/core/render/find-browser.js';

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
