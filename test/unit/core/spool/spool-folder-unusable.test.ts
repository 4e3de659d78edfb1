/**
 * A print past the spool's threshold whose spool folder cannot be made (the temp folder is a
 * file, or gone): the error says what is wrong and what to do, not a bare ENOTDIR naming a
 * random path; the full-disk case keeps its cause, so the service still answers it as one
 * (507); and the print's stream is given up, since an open one keeps the PDF in Chromium.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { isImprintError } from '../../../../src/core/errors.js';
import { collectChunks } from '../../../../src/core/spool/spool-chunks.js';
import { isStorageFull } from '../../../../src/core/store/storage-full.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-spool-unusable-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Two chunks of a print, and whether the reader gave the stream up (the generator's finally ran). */
function printStream() {
  const state = { closed: false, read: 0 };
  async function* chunks() {
    try {
      for (let i = 0; i < 2; i++) {
        state.read++;
        yield Buffer.alloc(1024, i);
      }
    } finally {
      state.closed = true;
    }
  }
  return { chunks: chunks(), state };
}

test('a temp folder that is a file: an ImprintError naming it and the remedies, the stream closed', async () => {
  const notAFolder = path.join(scratch, 'a-file');
  fs.writeFileSync(notAFolder, 'not a folder');
  const { chunks, state } = printStream();
  await assert.rejects(collectChunks(chunks, { fromBytes: 1, dir: notAFolder }), (error: unknown) => {
    assert.ok(isImprintError(error), String(error));
    assert.equal(error.code, 'INTERNAL');
    assert.match(error.message, new RegExp(`no folder could be made in the temporary folder ${notAFolder.replaceAll('/', '\\/')} \\(ENOTDIR`));
    assert.match(error.message, /Set TMPDIR to a writable folder with room for the biggest documents, or raise IMPRINT_SPOOL_FROM/);
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOTDIR');
    assert.equal(isStorageFull(error), false);
    return true;
  });
  assert.deepEqual(state, { closed: true, read: 1 }, 'the stream given up after the chunk that passed the threshold');
});

test('a temp folder that is gone: the same advice (ENOENT)', async () => {
  const { chunks, state } = printStream();
  await assert.rejects(collectChunks(chunks, { fromBytes: 1, dir: path.join(scratch, 'gone') }), /no folder could be made in the temporary folder .*\(ENOENT.*Set TMPDIR/);
  assert.equal(state.closed, true);
});

test('below the threshold nothing is spooled, so an unusable folder does not matter', async () => {
  const { chunks } = printStream();
  const pdf = await collectChunks(chunks, { fromBytes: 4096, dir: path.join(scratch, 'gone') });
  assert.ok(Buffer.isBuffer(pdf) && pdf.length === 2048);
});
