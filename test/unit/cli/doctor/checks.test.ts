/** `imprint doctor`'s pure parts: the Node version rule, the data folder's verdicts. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkDataFolder, checkNode, satisfiesRange } from '../../../../src/cli/doctor/checks.js';

test('a version satisfies ">=x.y.z" when no part is lower before a higher one', () => {
  const cases: [string, string, boolean][] = [
    ['20.18.1', '>=20.18.1', true],
    ['20.18.0', '>=20.18.1', false],
    ['20.20.2', '>=20.18.1', true],
    ['22.0.0', '>=20.18.1', true],
    ['18.20.4', '>=20.18.1', false],
    ['20.9.9', '>=20.18.1', false],
  ];
  for (const [version, range, expected] of cases) assert.equal(satisfiesRange(version, range), expected, `${version} ${range}`);
});

test('"^a.b.c || >=x.y.z": that major from a.b.c on, or anything from x.y.z on', () => {
  const range = '^22.19.0 || >=24.11.0';
  const cases: [string, boolean][] = [
    ['22.19.0', true],
    ['22.23.3', true],
    ['22.18.9', false],
    ['23.11.1', false],
    ['24.10.0', false],
    ['24.11.0', true],
    ['24.21.0', true],
    ['26.1.0', true],
    ['20.20.2', false],
  ];
  for (const [version, expected] of cases) assert.equal(satisfiesRange(version, range), expected, `${version} ${range}`);
});

test('the Node check fails below the engines field and names the fix', () => {
  assert.equal(checkNode(process.versions.node).status, 'ok');
  const old = checkNode('20.20.2');
  assert.equal(old.status, 'fail');
  assert.match(old.fix ?? '', /Node\.js 24/);
});

test('a data folder is fine when it, or the folder it would be made in, is writable; not under a file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-doctor-'));
  try {
    assert.equal(checkDataFolder(dir).status, 'ok');
    assert.match(checkDataFolder(path.join(dir, 'new', 'data')).detail, /created on first publish/);
    fs.writeFileSync(path.join(dir, 'file'), '');
    const underFile = checkDataFolder(path.join(dir, 'file', 'data'));
    assert.equal(underFile.status, 'fail');
    assert.match(underFile.detail, /is a file/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
