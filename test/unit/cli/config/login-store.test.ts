import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { openLoginStore } from '../../../../src/cli/config/login-store.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-login-store-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a login saved through conf is read back by the plain reader, and cleared', async () => {
  const store = openLoginStore(path.join(dir, 'a'));
  assert.deepEqual(store.read(), {});
  await store.save({ apiUrl: 'https://pdf.example.org', apiKey: 'imp_secret' });
  // conf wrote the file the reader looks at, readable by the user alone.
  assert.equal(fs.statSync(store.path).mode & 0o777, 0o600);
  assert.deepEqual(openLoginStore(path.join(dir, 'a')).read(), { apiUrl: 'https://pdf.example.org', apiKey: 'imp_secret' });
  await store.clear();
  assert.deepEqual(store.read(), { apiUrl: undefined, apiKey: undefined });
});

test('values of the wrong type are ignored; a corrupt file is a usage error naming it', () => {
  const other = path.join(dir, 'b');
  fs.mkdirSync(other);
  const store = openLoginStore(other);
  fs.writeFileSync(store.path, JSON.stringify({ apiUrl: 42, apiKey: 'k' }));
  assert.deepEqual(store.read(), { apiUrl: undefined, apiKey: 'k' });
  fs.writeFileSync(store.path, '{ not json');
  assert.throws(() => store.read(), (error: Error) => error.message.includes(store.path) && /imprint login/.test(error.message));
});
