/**
 * A print's chunks kept in memory or spooled to a file (src/core/spool/spool-chunks.ts): past the
 * threshold the same bytes land in a private file of a private folder, which dispose removes;
 * a stream that fails once spooling began leaves no folder behind and keeps its own error. (A
 * folder that cannot be made: spool-folder-unusable.test.ts.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { collectChunks } from '../../../../src/core/spool/spool-chunks.js';
import { SpooledPdf } from '../../../../src/core/spool/spooled-pdf.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-spool-chunks-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const CHUNK = 1024;
const THRESHOLD = 4 * CHUNK;

/** `count` chunks of distinct bytes, then `failure` if given. */
function stream(count: number, failure?: Error) {
  const chunkOf = (n: number) => Buffer.alloc(CHUNK, n);
  async function* chunks() {
    for (let n = 0; n < count; n++) yield chunkOf(n);
    if (failure) throw failure;
  }
  return { chunks: chunks(), bytes: Buffer.concat(Array.from({ length: count }, (_, n) => chunkOf(n))) };
}

const spoolFolders = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith('imprint-spool-'));

test('below the threshold a Buffer; past it the same bytes in a private file of its own folder, removed by dispose', async () => {
  const dir = fs.mkdtempSync(path.join(root, 'tmp-'));
  const small = stream(3);
  const held = await collectChunks(small.chunks, { fromBytes: THRESHOLD, dir });
  assert.ok(Buffer.isBuffer(held) && held.equals(small.bytes));
  assert.deepEqual(spoolFolders(dir), []);

  const big = stream(10);
  const spooled = await collectChunks(big.chunks, { fromBytes: THRESHOLD, dir });
  assert.ok(spooled instanceof SpooledPdf);
  assert.equal(spooled.bytes, big.bytes.length);
  assert.ok(fs.readFileSync(spooled.file).equals(big.bytes), 'the chunks held before the threshold first, then the rest, in order');
  assert.equal(fs.statSync(spooled.file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(spooled.file)).mode & 0o777, 0o700);
  await spooled.dispose();
  assert.deepEqual(spoolFolders(dir), []);
});

test('a stream that fails once spooling began: its own error, no folder left', async () => {
  const dir = fs.mkdtempSync(path.join(root, 'tmp-'));
  const failure = new Error('the page was closed at the deadline');
  await assert.rejects(collectChunks(stream(10, failure).chunks, { fromBytes: THRESHOLD, dir }), (error: unknown) => error === failure);
  assert.deepEqual(spoolFolders(dir), []);
});
