/**
 * The object store port's suite: what every adapter must do (objects/types.ts), run against
 * each (objects.test.ts: files in a data folder, an S3 bucket on s3rver) through the same
 * interface. What only one adapter has (file paths, key prefixes, an unreachable server) is
 * tested beside it.
 */
import assert from 'node:assert/strict';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ImprintError } from '../../src/core/errors.js';
import type { ObjectStore } from '../../src/core/store/objects/types.js';

export interface ObjectsAdapter {
  name: string;
  /** A new, empty object store; remove() closes it and throws its objects away. */
  fresh(): Promise<{ objects: ObjectStore; remove(): Promise<void> }>;
}

export function objectsSuite(adapter: ObjectsAdapter): void {
  describe(`${adapter.name}: object store`, () => {
    let objects: ObjectStore;
    let remove: () => Promise<void>;

    beforeEach(async () => {
      ({ objects, remove } = await adapter.fresh());
    });
    afterEach(async () => {
      await remove();
    });

    test('put, get, size, stream and delete one object', async () => {
      const data = Buffer.from('%PDF-1.7 some bytes');
      await objects.put('files/a.pdf', data);
      assert.deepEqual(await objects.get('files/a.pdf'), data);
      assert.equal(await objects.size('files/a.pdf'), data.length);
      assert.deepEqual(await buffer(await objects.stream('files/a.pdf')), data);
      await objects.delete('files/a.pdf');
      assert.equal(await objects.get('files/a.pdf'), undefined);
      assert.equal(await objects.size('files/a.pdf'), undefined);
    });

    test('an object that is not there: get and size answer undefined, stream is NOT_FOUND, delete is no error', async () => {
      assert.equal(await objects.get('artifacts/nothing'), undefined);
      assert.equal(await objects.size('artifacts/nothing'), undefined);
      await assert.rejects(() => objects.stream('artifacts/nothing'), (error) => error instanceof ImprintError && error.code === 'NOT_FOUND');
      await objects.delete('artifacts/nothing');
    });

    test('a put replaces the whole object; the kinds of object do not mix', async () => {
      await objects.put('artifacts/x', Buffer.from('a longer first version'));
      await objects.put('artifacts/x', Buffer.from('short'));
      await objects.put('files/x', Buffer.from('another kind'));
      assert.equal((await objects.get('artifacts/x'))!.toString(), 'short');
      assert.equal(await objects.size('artifacts/x'), 5);
      assert.equal((await objects.get('files/x'))!.toString(), 'another kind');
    });

    test('large objects and many at once', async () => {
      const large = Buffer.alloc(3 * 1024 * 1024, 7);
      large.write('start', 0);
      await objects.put('files/large.pdf', large);
      assert.deepEqual(await buffer(await objects.stream('files/large.pdf')), large);
      const names = Array.from({ length: 20 }, (_, i) => `files/${i}.pdf`);
      await Promise.all(names.map((name, i) => objects.put(name, Buffer.from(`document ${i}`))));
      const read = await Promise.all(names.map((name) => objects.get(name)));
      assert.deepEqual(read.map((data) => data!.toString()), names.map((_, i) => `document ${i}`));
    });

    test('check() resolves while the storage is usable; location names it', async () => {
      await objects.check();
      assert.equal(typeof objects.location, 'string');
      assert.ok(objects.location.length > 0);
    });
  });
}
