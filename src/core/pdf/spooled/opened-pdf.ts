/**
 * A spooled print of the shape classic-pdf.ts reads (Chromium's), read from its two ends, never
 * whole: the first KiB for the header, the last KiB for startxref, then the object table and the
 * trailer. The table is read whole, as the in-memory path reads it: 20 bytes an object, so what
 * it holds grows with the object count (a structure element each), never with the bytes of the
 * pages, fonts and images between. The objects themselves are read one by one as they are
 * copied (packed-file.ts, classic-file.ts); readObject tells a stream, copied a chunk at a
 * time, from a plain object, small enough to read whole.
 *
 * Where the in-memory path would look farther (a startxref before the last KiB, an object whose
 * `endobj` is not within its last 64 KiB) this throws Shape too: nothing Chromium writes, and
 * the caller then reads the file into memory, where the in-memory path decides.
 */
import { lastStartxref, objectEnd, readClassicTable, unexpected, type ClassicTable } from '../classic-pdf.js';
import { CHROMIUM_TRAILER_KEYS } from '../info-rewrite.js';
import type { RenumberedReader } from './renumbered-reader.js';

/** The file's first and last bytes read for its header and its startxref: Chromium's header is two lines, its startxref within the last 40 bytes. */
const END_BYTES = 1024;

/** How far back from an object's end its `endobj` is looked for. */
const ENDING_SEARCH_BYTES = 64 << 10;

/** A print on disk opened for its finish: its reader, its table, its first bytes (core/spool/spooled-pdf.ts is the print's file as the render carries it). */
export interface OpenedPdf {
  reader: RenumberedReader;
  table: ClassicTable;
  /** The file's first bytes (up to a KiB) as latin1: its header lines. */
  head: string;
}

export async function openPdf(reader: RenumberedReader): Promise<OpenedPdf> {
  const head = await reader.text(0, Math.min(reader.size, END_BYTES));
  if (!head.startsWith('%PDF-')) unexpected('no header');
  const xrefAt = lastStartxref(await reader.text(Math.max(0, reader.size - END_BYTES), reader.size));
  if (xrefAt >= reader.size) unexpected('a startxref past the end');
  const table = readClassicTable(await reader.text(xrefAt, reader.size), 0, xrefAt, CHROMIUM_TRAILER_KEYS, false);
  return { reader, table, head };
}

/** An object read for copying: a stream, to copy a chunk at a time, or a plain object's whole text. */
export type SpooledObject = { kind: 'stream' } | { kind: 'plain'; text: string };

/**
 * The object running from `offset` to `end`: a stream (what comes before its last `endobj` ends
 * in `endstream`) or a plain one, as the in-memory packer tells them (object-streams.ts,
 * objectBody and staysPlain), read from the object's end backwards: a few hundred bytes for a
 * content stream of megabytes. A plain object is read whole (most are read so already: a
 * structure element is some 150 bytes). Undefined when it has no `endobj` within
 * ENDING_SEARCH_BYTES of its end.
 */
export async function readObject(reader: RenumberedReader, offset: number, end: number): Promise<SpooledObject | undefined> {
  for (let back = 256; ; back *= 2) {
    const from = Math.max(offset, end - back);
    const text = await reader.text(from, end);
    const close = text.lastIndexOf('endobj');
    if (close >= 0) {
      const before = text.slice(0, close).trimEnd();
      // Whether the trimmed body ends in `endstream` is settled once nine characters of it are seen, or all of it.
      if (before.length >= 'endstream'.length || from === offset) {
        if (before.endsWith('endstream')) return { kind: 'stream' };
        return { kind: 'plain', text: from === offset ? text : await reader.text(offset, end) };
      }
    }
    if (from === offset || back >= ENDING_SEARCH_BYTES) return undefined;
  }
}

/** Object `n`'s text (in use), from its offset to the next object's. */
export async function objectText({ reader, table }: OpenedPdf, n: number): Promise<string> {
  const { order, xref } = table;
  // `order` is sorted by offset, each offset once: a binary search finds n's place in it.
  let low = 0;
  for (let high = order.length - 1; low < high; ) {
    const middle = (low + high) >>> 1;
    if (xref.offset[order[middle]] < xref.offset[n]) low = middle + 1;
    else high = middle;
  }
  return reader.text(xref.offset[n], objectEnd(table, low));
}
