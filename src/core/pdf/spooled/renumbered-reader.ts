/**
 * A spooled print's bytes as the in-memory finish sees them after renumberStructureIds: read at
 * their offsets (positional reads, libuv's thread pool, never the whole file), each read with
 * the structure ids in it rewritten (structure-id-scan.ts counted them). A read covers 13 bytes
 * more on each side than asked, so an id cut by its ends is seen whole and rewritten too: the
 * bytes handed out are those of the renumbered file, wherever a chunk starts.
 *
 * One buffer of a chunk is reused for reads up to a chunk (the next objects are served from it
 * without another read); a larger one (a whole dictionary bigger than a chunk, the object table)
 * gets a buffer of its own, dropped after. A stream is read a chunk at a time (chunks()).
 */
import type fs from 'node:fs';
import { ID_BYTES, idsIn, writeRenumbered } from '../structure-ids.js';
import { readAt } from './read-at.js';
import { structureIdRenumbering } from './structure-id-scan.js';

/** What is read beyond each end: an id overlapping the range starts at most this far before it and ends at most this far after. */
const MARGIN = ID_BYTES - 1;

export class RenumberedReader {
  /** The file's range the buffer holds (renumbered), and where in the buffer it starts. */
  private windowFrom = 0;
  private windowTo = 0;
  private windowAt = 0;

  private constructor(
    private readonly handle: fs.promises.FileHandle,
    /** The file's length when it was opened. */
    readonly size: number,
    readonly chunkBytes: number,
    private readonly buffer: Buffer,
    /** The file's ids, sorted (structure-ids.ts's renumbering). */
    private readonly ids: Uint32Array,
  ) {}

  /** A reader of the open file `handle`, once its ids are counted (the first pass reads the whole file into the reader's buffer). */
  static async open(handle: fs.promises.FileHandle, chunkBytes: number): Promise<RenumberedReader> {
    const { size } = await handle.stat();
    const buffer = Buffer.allocUnsafeSlow(chunkBytes + 2 * MARGIN);
    return new RenumberedReader(handle, size, chunkBytes, buffer, await structureIdRenumbering(handle, size, buffer));
  }

  /** The bytes from `from` to `to`: a view, valid until the next call. */
  async bytes(from: number, to: number): Promise<Buffer> {
    const { buffer, at } = await this.holding(from, to);
    return buffer.subarray(at, at + to - from);
  }

  /** The bytes from `from` to `to` as latin1 text (a character a byte), as the in-memory path reads the file. */
  async text(from: number, to: number): Promise<string> {
    const { buffer, at } = await this.holding(from, to);
    return buffer.toString('latin1', at, at + to - from);
  }

  /** A buffer holding the bytes from `from` to `to` (renumbered) at `at`: the shared one, read again unless it holds them, or one of their own. */
  private async holding(from: number, to: number): Promise<{ buffer: Buffer; at: number }> {
    if (!(from >= 0 && from <= to && to <= this.size)) throw new RangeError(`Bytes ${from} to ${to} are not within the ${this.size} bytes of the file.`);
    if (from >= this.windowFrom && to <= this.windowTo) return { buffer: this.buffer, at: this.windowAt + from - this.windowFrom };
    // At least a chunk from `from`: the objects after it are read with it.
    const end = Math.max(to, Math.min(this.size, from + this.chunkBytes));
    const readFrom = Math.max(0, from - MARGIN);
    const readTo = Math.min(this.size, end + MARGIN);
    const own = readTo - readFrom > this.buffer.length;
    const into = own ? Buffer.allocUnsafeSlow(readTo - readFrom) : this.buffer.subarray(0, readTo - readFrom);
    // Reading into the shared buffer spoils what it held until it is renumbered and described again.
    if (!own) this.windowTo = this.windowFrom;
    await readAt(this.handle, into, readFrom);
    if (this.ids.length) writeRenumbered(into, idsIn(into), this.ids);
    if (own) return { buffer: into, at: from - readFrom };
    this.windowFrom = from;
    this.windowTo = end;
    this.windowAt = from - readFrom;
    return { buffer: this.buffer, at: this.windowAt };
  }

  /** The bytes from `from` to `to` a chunk at a time: a stream of megabytes is never held whole. Each chunk is valid until the next. */
  async *chunks(from: number, to: number): AsyncGenerator<Buffer> {
    for (let at = from; at < to; at += this.chunkBytes) yield await this.bytes(at, Math.min(to, at + this.chunkBytes));
  }
}
