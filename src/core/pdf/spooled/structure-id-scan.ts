/**
 * The spooled finish's first pass: every structure id in the file (structure-ids.ts), read chunk
 * by chunk, and their renumbering, which the copy pass (renumbered-reader.ts) applies to every
 * byte it reads. The in-memory path numbers the ids of the whole file in their sorted order, so
 * the whole file is read for them before a byte is written. Each chunk keeps the previous one's
 * last 13 bytes in front of it: an id (14 bytes) cut by a chunk's end is found whole in the next.
 *
 * What this holds besides the buffer: the distinct ids (a number each), one per table header cell
 * Chromium gave an /ID, so proportional to the structure tree like the file's object table,
 * never to its bytes.
 */
import type fs from 'node:fs';
import { ID_BYTES, idAt, idsIn, renumbering } from '../structure-ids.js';
import { readAt } from './read-at.js';

/**
 * Each id of the file's `size` bytes to its new digits: empty for an untagged print. The file is
 * read into `buffer` (the reader's own, renumbered-reader.ts), 13 bytes less than its length at a time.
 */
export async function structureIdRenumbering(handle: fs.promises.FileHandle, size: number, buffer: Buffer): Promise<Uint32Array> {
  const carry = ID_BYTES - 1;
  const chunkBytes = buffer.length - carry;
  const ids = new Set<number>();
  let kept = 0;
  for (let position = 0; position < size; ) {
    const length = Math.min(chunkBytes, size - position);
    await readAt(handle, buffer.subarray(kept, kept + length), position);
    position += length;
    const window = buffer.subarray(0, kept + length);
    for (const at of idsIn(window)) ids.add(idAt(window, at));
    kept = Math.min(carry, window.length);
    buffer.copyWithin(0, window.length - kept, window.length);
  }
  return renumbering(ids);
}
