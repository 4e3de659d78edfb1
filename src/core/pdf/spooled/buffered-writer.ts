/**
 * The spooled finish's output: bytes gathered in one buffer and written a buffer at a time
 * (positional writes at the end of what is written), so copying thousands of small objects costs
 * a few hundred writes, not one each. `position` is what the file's offsets count: the next
 * byte's place in the file.
 */
import type fs from 'node:fs';
import { writeAll } from '../../atomic-file.js';

/** Gathered before a write: big enough that the writes are few, small beside a big document. */
const WRITE_BUFFER_BYTES = 1 << 20;

const NEWLINE = Buffer.from('\n');

export class BufferedWriter {
  /** Bytes written so far, gathered ones included. */
  position = 0;
  private readonly buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  private gathered = 0;
  private lastByte = -1;

  constructor(private readonly handle: fs.promises.FileHandle) {}

  /** `bytes` after what is written; copied, so the caller may reuse them. */
  async write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    if (bytes.length > this.buffer.length) {
      await this.flush();
      await writeAll(this.handle, bytes, this.position);
    } else {
      await this.room(bytes.length);
      this.buffer.set(bytes, this.gathered);
      this.gathered += bytes.length;
    }
    this.advance(bytes.length, bytes[bytes.length - 1]);
  }

  /** Latin1 text (a character a byte), as the PDF writers build their objects: written into the buffer, no Buffer of its own. */
  async writeText(text: string): Promise<void> {
    if (text.length === 0 || text.length > this.buffer.length) return this.write(Buffer.from(text, 'latin1'));
    await this.room(text.length);
    this.gathered += this.buffer.write(text, this.gathered, 'latin1');
    this.advance(text.length, text.charCodeAt(text.length - 1));
  }

  /** Each chunk in turn: a stream read a chunk at a time (renumbered-reader.ts), or an object written in parts. */
  async copy(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    for await (const chunk of chunks) await this.write(chunk);
  }

  /** A newline unless the last byte written was one: the next object starts on a line of its own, as the in-memory packer puts it. */
  async endLine(): Promise<void> {
    if (this.lastByte !== 0x0a) await this.write(NEWLINE);
  }

  /** Room for `length` bytes in the buffer, flushing what it holds if need be. */
  private async room(length: number): Promise<void> {
    if (this.gathered + length > this.buffer.length) await this.flush();
  }

  private advance(length: number, last: number): void {
    this.position += length;
    this.lastByte = last;
  }

  /** What is gathered, written. */
  async flush(): Promise<void> {
    if (this.gathered === 0) return;
    await writeAll(this.handle, this.buffer.subarray(0, this.gathered), this.position - this.gathered);
    this.gathered = 0;
  }
}
