/**
 * The objects of a PDF as a reader sees them: its last revision. A file that was updated
 * incrementally (a signature appends one: sign/incremental-update.ts) holds old versions of
 * some objects and new ones under the same numbers after them; which one counts is what the
 * cross-reference sections say, read from the last `startxref` back through each /Prev, the
 * newest section's line for a number winning (a number it marks free is gone). Both forms
 * Imprint's files have are read: classic tables (Chromium's, pdf-lib's saves, an update after
 * one) and cross-reference streams (the tag packer's, object-streams.ts, and an update after
 * one), plain or /FlateDecode without a predictor, as those write them.
 *
 * Objects are found at the offsets the sections give, never by searching the text, so bytes
 * inside a stream (a JPEG passed through as it is) or a string (a title) cannot pass for an
 * object. An object inside an object stream is not read (Imprint keeps the catalog and the page
 * tree out of them): asking for one throws Shape, as does any other shape this does not read.
 */
import { inflateSync } from 'node:zlib';
import { entryValue, lastStartxref, objectDictionaryAt, readDictionary, readXrefTable, refNumber, Shape, skipSpace, unexpected, type Entry } from './classic-pdf.js';

/** What a section says of an object number. */
const Line = { Unlisted: 0, InUse: 1, Free: 2, InObjectStream: 3 } as const;

interface Section {
  line: Uint8Array;
  offset: Float64Array;
  trailer: Entry[];
}

export interface LastRevision {
  /** The catalog's object number (the newest trailer's /Root). */
  root: number;
  /** The entries of object `n`'s dictionary (a stream's too, without its data) in the last revision. */
  dictionary(n: number): Entry[];
}

/** Sections a chain may hold before it is taken for a loop. */
const MAX_SECTIONS = 1000;

/** A non-negative integer entry, or undefined when there is none; anything else is not a shape this reads. */
function integerEntry(entries: Entry[], key: string): number | undefined {
  const value = entryValue(entries, key);
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : unexpected(`a /${key} that is not an integer`);
}

/** The integers of an array entry written inline (`[1 4 2]`). */
function integers(value: string): number[] {
  const inner = /^\[([\d\s]*)\]$/.exec(value) ?? unexpected('an array of integers');
  return inner[1]!.trim().split(/\s+/).filter(Boolean).map(Number);
}

function tableSection(text: string, at: number): Section {
  const { xref, listed, trailer, size } = readXrefTable(text, at);
  const line = new Uint8Array(size);
  for (let n = 0; n < size; n++) if (listed[n]) line[n] = xref.inUse[n] ? Line.InUse : Line.Free;
  return { line, offset: xref.offset, trailer };
}

/** Flate data of at most `maxBytes`, its rows: inflating stops there, whatever the data claims. */
function inflated(raw: Buffer, maxBytes: number): Buffer {
  try {
    return inflateSync(raw, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (error) {
    // Not Flate, or more than the rows it lists: not a section this reads.
    throw new Shape('a cross-reference stream that does not inflate to its rows', { cause: error });
  }
}

function streamSection(text: string, at: number): Section {
  const header = /^(\d+)\s+0\s+obj\s*/.exec(text.slice(at, at + 40)) ?? unexpected('no cross-reference section at startxref');
  const { entries, end } = readDictionary(text, at + header[0].length);
  if (entryValue(entries, 'Type') !== '/XRef') unexpected('no cross-reference stream at startxref');
  const size = integerEntry(entries, 'Size') ?? unexpected('a cross-reference stream without /Size');
  const widths = integers(entryValue(entries, 'W') ?? unexpected('a cross-reference stream without /W'));
  const index = integers(entryValue(entries, 'Index') ?? `[0 ${size}]`);
  if (widths.length !== 3 || widths.some((width) => width > 8) || index.length % 2) unexpected('a bad /W or /Index');
  const rowBytes = widths[0]! + widths[1]! + widths[2]!;
  let rows = 0;
  for (let k = 0; k < index.length; k += 2) rows += index[k + 1]!;

  const keyword = skipSpace(text, end);
  if (!text.startsWith('stream', keyword)) unexpected('a cross-reference stream without data');
  const dataAt = keyword + 6 + (text.startsWith('\r\n', keyword + 6) ? 2 : 1);
  const raw = Buffer.from(text.slice(dataAt, dataAt + (integerEntry(entries, 'Length') ?? unexpected('no direct /Length'))), 'latin1');
  const filter = entryValue(entries, 'Filter');
  if ((filter !== undefined && filter !== '/FlateDecode') || entryValue(entries, 'DecodeParms') !== undefined) unexpected('a cross-reference stream encoded otherwise');
  const data = filter === undefined ? raw : inflated(raw, rows * rowBytes);
  if (data.length < rows * rowBytes) unexpected('a cross-reference stream shorter than its rows');

  const field = (row: number, from: number, width: number) => {
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[row * rowBytes + from + i]!;
    return value;
  };
  const line = new Uint8Array(size);
  const offset = new Float64Array(size);
  let row = 0;
  for (let k = 0; k < index.length; k += 2) {
    for (let n = index[k]!; n < index[k]! + index[k + 1]!; n++, row++) {
      if (n >= size) unexpected('a cross-reference stream larger than its /Size');
      // A missing type field means type 1 (ISO 32000-1, table 17).
      const type = widths[0] ? field(row, 0, widths[0]) : 1;
      line[n] = type === 0 ? Line.Free : type === 1 ? Line.InUse : type === 2 ? Line.InObjectStream : unexpected('an unknown cross-reference type');
      offset[n] = field(row, widths[0]!, widths[1]!);
    }
  }
  return { line, offset, trailer: entries };
}

/** The last revision of the file whose latin1 text is `text`; Shape when its cross-reference sections cannot be followed. */
export function readLastRevision(text: string): LastRevision {
  const sections: Section[] = [];
  const visited = new Set<number>();
  for (let at: number | undefined = lastStartxref(text); at !== undefined; ) {
    if (visited.has(at) || visited.size >= MAX_SECTIONS) unexpected('a loop of /Prev');
    visited.add(at);
    const section = text.startsWith('xref', at) ? tableSection(text, at) : streamSection(text, at);
    sections.push(section);
    at = integerEntry(section.trailer, 'Prev');
  }
  const root = refNumber(entryValue(sections[0]!.trailer, 'Root'));
  const dictionary = (n: number): Entry[] => {
    const section = sections.find((candidate) => n < candidate.line.length && candidate.line[n] !== Line.Unlisted);
    const line = section?.line[n];
    if (line !== Line.InUse) unexpected(line === Line.InObjectStream ? `object ${n} in an object stream` : `object ${n} not in use`);
    return readDictionary(text, objectDictionaryAt(text, n, section!.offset[n]!)).entries;
  };
  return { root, dictionary };
}
