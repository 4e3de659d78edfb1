/**
 * src/core/atomic-file.ts, the one writer of whole files: the store's objects (durable, private)
 * and the CLI's outputs (write-output.ts, jobs archive) both go through it, so a reader sees the
 * old file or the whole new one, and a failure leaves no temp file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { replaceFileAtomically, streamFileAtomically, writeFileAtomic, writeFileAtomicSync } from '../../../src/core/atomic-file.js';

describe('core/atomic-file', { timeout: 30_000 }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-atomic-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const folder = () => fs.mkdtempSync(path.join(root, 'case-'));

  test('a durable write of the store: the bytes, private to the user, and nothing else in the folder', async () => {
    const dir = folder();
    const file = path.join(dir, 'object.pdf');
    await writeFileAtomic(file, Buffer.from('%PDF-1.7 whole'), { durable: true, mode: 0o600 });
    assert.equal(fs.readFileSync(file, 'utf8'), '%PDF-1.7 whole');
    if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dir), ['object.pdf']);
  });

  test('what `fill` fails to finish is never renamed into place: the old file stays, the temp file goes, the error is the fill\'s', async () => {
    const dir = folder();
    const file = path.join(dir, 'archive.zip');
    fs.writeFileSync(file, 'old');
    const cut = new Error('the answer ended early');
    await assert.rejects(
      replaceFileAtomically(file, async (handle) => {
        await handle.write(Buffer.from('half a zi'));
        throw cut;
      }),
      (error) => error === cut,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'old');
    assert.deepEqual(fs.readdirSync(dir), ['archive.zip']);
  });

  test('a stream (a download) replaces the file once it is whole, as `imprint jobs archive` writes it', async () => {
    const dir = folder();
    const file = path.join(dir, 'streamed.txt');
    fs.writeFileSync(file, 'old');
    await streamFileAtomically(file, (into) => pipeline(Readable.from(['first part, ', 'second part']), into));
    assert.equal(fs.readFileSync(file, 'utf8'), 'first part, second part');
    assert.deepEqual(fs.readdirSync(dir), ['streamed.txt']);
  });

  test("a durable stream, as the files store takes a spooled PDF: the bytes, fsynced through the temp file's handle, private", async () => {
    const dir = folder();
    const file = path.join(dir, 'spooled.pdf');
    const spooled = path.join(folder(), 'document.pdf');
    const bytes = Buffer.concat(Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 << 10, i)));
    fs.writeFileSync(spooled, bytes);
    // Read from a file and piped with end: false, as the store takes a SpooledPdf: the stream is ended and drained before the fsync.
    await streamFileAtomically(file, (into) => pipeline(fs.createReadStream(spooled), into, { end: false }), { durable: true, mode: 0o600 });
    assert.ok(fs.readFileSync(file).equals(bytes));
    if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dir), ['spooled.pdf']);
  });

  test('the synchronous write: the last of two writes wins, and a rename that fails leaves the old file and no temp file', () => {
    const dir = folder();
    const file = path.join(dir, 'summary.json');
    writeFileAtomicSync(file, 'first');
    writeFileAtomicSync(file, 'second');
    assert.equal(fs.readFileSync(file, 'utf8'), 'second');
    // A file cannot replace a folder that holds something.
    const blocked = path.join(dir, 'blocked');
    fs.mkdirSync(blocked);
    fs.writeFileSync(path.join(blocked, 'inside'), 'x');
    assert.throws(() => writeFileAtomicSync(blocked, 'new'), (error: NodeJS.ErrnoException) => typeof error.code === 'string');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['blocked', 'summary.json']);
  });
});
