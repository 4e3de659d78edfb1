/**
 * The object store's two adapters: the shared suite (objects-suite.ts) against files in a
 * temporary data folder and against an S3 bucket on a real S3-compatible server (s3rver on
 * 127.0.0.1), and what only each has: the data folder's layout of old, key prefixes in the
 * bucket, and an S3 server that goes away and comes back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ImprintError } from '../../src/core/errors.js';
import { createFileObjects } from '../../src/core/store/objects/files.js';
import { openObjectStore } from '../../src/core/store/objects/open-objects.js';
import { createS3Objects } from '../../src/core/store/objects/s3.js';
import { parseStorageUrl } from '../../src/core/store/objects/storage-url.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { objectsSuite } from './objects-suite.js';

let s3: S3Server;
let prefixes = 0;

before(async () => {
  s3 = await startS3();
});
after(async () => {
  await s3?.remove();
});

const tempFolder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-objects-'));

objectsSuite({
  name: 'files',
  async fresh() {
    const dataDir = tempFolder();
    const objects = createFileObjects(dataDir);
    return { objects, remove: async () => (await objects.close(), fs.rmSync(dataDir, { recursive: true, force: true })) };
  },
});

objectsSuite({
  name: 'S3',
  async fresh() {
    // One bucket, a prefix per test: each starts empty.
    const objects = createS3Objects(s3.options(`suite/${++prefixes}`));
    return { objects, remove: () => objects.close() };
  },
});

const unavailable = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ImprintError, String(error));
  assert.equal(error.code, 'STORAGE_UNAVAILABLE');
  assert.match(error.message, pattern);
  return true;
};

describe('files only', () => {
  test('the data folder keeps its layout: artifacts/<sha256> and files/<name>.pdf, no temp files left', async () => {
    const dataDir = tempFolder();
    try {
      const objects = createFileObjects(dataDir);
      assert.deepEqual(fs.readdirSync(dataDir).sort(), ['artifacts', 'files']);
      await objects.put('artifacts/abc', Buffer.from('artifact'));
      await objects.put('files/x.pdf', Buffer.from('pdf'));
      assert.equal(fs.readFileSync(path.join(dataDir, 'artifacts', 'abc'), 'utf8'), 'artifact');
      assert.equal(objects.localPath!('files/x.pdf'), path.join(dataDir, 'files', 'x.pdf'));
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'files')), ['x.pdf']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('S3 only', () => {
  test('keys live under the prefix of --storage; no local path', async () => {
    const objects = createS3Objects(s3.options('tenant/prod'));
    try {
      await objects.put('artifacts/abc', Buffer.from('artifact'));
      await objects.put('files/x.pdf', Buffer.from('pdf'));
      assert.deepEqual(await s3.keys('tenant/prod/'), ['tenant/prod/artifacts/abc', 'tenant/prod/files/x.pdf']);
      assert.equal(objects.localPath, undefined);
      assert.match(objects.location, /^S3 bucket "imprint-test" prefix "tenant\/prod\/" at http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await objects.close();
    }
  });

  test('an unknown bucket is refused at open, naming the bucket and the endpoint', async () => {
    await assert.rejects(
      () => openObjectStore(tempFolder(), { ...s3.options(), bucket: 'no-such-bucket' }),
      unavailable(/S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+\) could not reach the bucket: .*does not exist/),
    );
  });

  test('a server that goes away: STORAGE_UNAVAILABLE naming it; the same client works again once it is back', async () => {
    const objects = createS3Objects(s3.options('outage'));
    try {
      await objects.put('artifacts/kept', Buffer.from('kept'));
      await s3.stop();
      try {
        const named = new RegExp(`S3 bucket "imprint-test" prefix "outage/" at ${s3.endpoint.replace(/\./g, '\\.')}\\) could not`);
        await assert.rejects(() => objects.check(), unavailable(named));
        await assert.rejects(() => objects.get('artifacts/kept'), unavailable(/could not read artifacts\/kept: .*ECONNREFUSED/));
        await assert.rejects(() => objects.put('files/new.pdf', Buffer.from('x')), unavailable(/could not store files\/new\.pdf/));
        await assert.rejects(() => objects.size('files/new.pdf'), unavailable(/could not find/));
        await assert.rejects(() => objects.stream('files/new.pdf'), unavailable(/could not read/));
        await assert.rejects(
          () => openObjectStore(tempFolder(), s3.options()),
          unavailable(/could not reach the bucket/),
          'a service does not start on a storage it cannot reach',
        );
      } finally {
        await s3.start();
      }
      await objects.check();
      assert.equal((await objects.get('artifacts/kept'))!.toString(), 'kept');
    } finally {
      await objects.close();
    }
  });
});

describe('--storage', () => {
  test('s3://bucket and s3://bucket/prefix; anything else is a usage error saying what to write', () => {
    assert.deepEqual(parseStorageUrl('s3://imprint'), { bucket: 'imprint', prefix: '' });
    assert.deepEqual(parseStorageUrl('s3://imprint/'), { bucket: 'imprint', prefix: '' });
    assert.deepEqual(parseStorageUrl('s3://imprint-objects/prod/eu/'), { bucket: 'imprint-objects', prefix: 'prod/eu' });
    for (const bad of ['imprint', 'http://imprint/x', 's3://', 's3://Upper', 's3://a', 's3://bad_name/x', '/var/lib/imprint']) {
      assert.throws(() => parseStorageUrl(bad), (error: unknown) => error instanceof ImprintError && error.code === 'USAGE' && /s3:\/\/bucket/.test(error.message), bad);
    }
  });
});
