/**
 * A PDF of the shape Chromium (Skia) and pdf-lib's saves write, read and rewritten without
 * parsing the rest of it: one classic cross-reference table, no object streams, no update
 * section (/Prev), no encryption, every object of generation 0 at the offset the table gives.
 * The finishing step's Info rewrite (info-rewrite.ts) and the stamp (stamp-in-place.ts) read
 * the few dictionaries they change with this, and write the file again object for object: every
 * other object is copied byte for byte, a changed one takes its old place, new ones follow, and
 * the table is written again with the shifted offsets. The output keeps the input's shape, so
 * the steps after (compactTags's object streams, the page count of limits/pdf-pages.ts) read
 * it as they read Chromium's.
 *
 * Anything of another shape throws Shape; the callers answer undefined and take pdf-lib's path.
 */

/** A dictionary entry as it stands in the file: the key without its slash, the value's source text. */
export interface Entry {
  key: string;
  value: string;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set('()<>[]{}/%'.split('').map((c) => c.charCodeAt(0)));

/** The file is not of the shape this reads: the caller takes pdf-lib's path. */
export class Shape extends Error {}
export const unexpected = (what: string): never => {
  throw new Shape(what);
};

/** What `work` returns, or undefined when it met a file of another shape (Shape): the callers' answer for their other path. */
export function unlessOtherShape<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if (error instanceof Shape) return undefined;
    throw error;
  }
}

/** Index just past the value (or token) starting at `i` in `text` (latin1 source of the file). */
export function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '(') {
    let depth = 0;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\\') i++;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) return i + 1;
    }
    return unexpected('an unterminated string');
  }
  if (c === '<' && text[i + 1] === '<') {
    i += 2;
    for (;;) {
      i = skipSpace(text, i);
      if (text.startsWith('>>', i)) return i + 2;
      if (i >= text.length) unexpected('an unterminated dictionary');
      i = skipValue(text, i);
    }
  }
  if (c === '<') {
    const end = text.indexOf('>', i);
    return end < 0 ? unexpected('an unterminated hex string') : end + 1;
  }
  if (c === '[') {
    i++;
    for (;;) {
      i = skipSpace(text, i);
      if (text[i] === ']') return i + 1;
      if (i >= text.length) unexpected('an unterminated array');
      i = skipValue(text, i);
    }
  }
  if (c === '/') i++;
  const start = i;
  while (i < text.length && !WHITESPACE.has(text.charCodeAt(i)) && !DELIMITERS.has(text.charCodeAt(i))) i++;
  return i === start ? unexpected(`a token at ${i}`) : i;
}

export function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    if (WHITESPACE.has(text.charCodeAt(i))) i++;
    else if (text[i] === '%') while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    else break;
  }
  return i;
}

/** A value: a reference (`12 0 R`) is three tokens, read as one. */
function readValue(text: string, i: number): number {
  const end = skipValue(text, i);
  const ref = /^\s+\d+\s+R(?![^\s()<>[\]{}/%])/.exec(text.slice(end, end + 24));
  return /^\d+$/.test(text.slice(i, end)) && ref ? end + ref[0].length : end;
}

/** The entries of the dictionary starting at `i` (at its `<<`), and the index past its `>>`. */
export function readDictionary(text: string, i: number): { entries: Entry[]; end: number } {
  if (!text.startsWith('<<', i)) unexpected('a dictionary');
  i += 2;
  const entries: Entry[] = [];
  for (;;) {
    i = skipSpace(text, i);
    if (text.startsWith('>>', i)) return { entries, end: i + 2 };
    if (text[i] !== '/') unexpected('a key');
    const keyEnd = skipValue(text, i);
    const valueStart = skipSpace(text, keyEnd);
    const valueEnd = readValue(text, valueStart);
    entries.push({ key: text.slice(i + 1, keyEnd), value: text.slice(valueStart, valueEnd) });
    i = valueEnd;
  }
}

/** The value of `key` in a dictionary's entries, as written; undefined when it has none. */
export const entryValue = (entries: Entry[], key: string) => entries.find((entry) => entry.key === key)?.value;

export const writeDictionary = (entries: Entry[]) => `<<${entries.map((entry) => `/${entry.key} ${entry.value}`).join('\n')}>>`;

/** The cross-reference table, a typed array per column indexed by object number (no object per entry: a tagged report has tens of thousands). */
export interface Xref {
  offset: Float64Array;
  generation: Uint32Array;
  inUse: Uint8Array;
}

/** Where the file's last cross-reference section starts: the offset its last `startxref` names. */
export function lastStartxref(text: string): number {
  const startxrefAt = text.lastIndexOf('startxref');
  if (startxrefAt < 0) unexpected('no startxref');
  return Number(/^startxref\s+(\d+)/.exec(text.slice(startxrefAt, startxrefAt + 40))?.[1] ?? unexpected('a bad startxref'));
}

/**
 * The classic cross-reference table at `xrefAt` (at its `xref` keyword) and the trailer after it;
 * `listed` marks the numbers the table has a line for (in use or free): in an update section
 * (/Prev) the others are an earlier section's.
 */
export function readXrefTable(text: string, xrefAt: number): { xref: Xref; listed: Uint8Array; trailer: Entry[]; size: number } {
  // The trailer first, for the table's size (a table holds digits and spaces only, never the word).
  const trailerWord = text.indexOf('trailer', xrefAt);
  if (trailerWord < 0) unexpected('no trailer');
  const trailer = readDictionary(text, skipSpace(text, trailerWord + 7)).entries;
  const size = Number(trailer.find((entry) => entry.key === 'Size')?.value);
  if (!Number.isSafeInteger(size) || size < 1) unexpected('a bad /Size');
  const xref: Xref = { offset: new Float64Array(size), generation: new Uint32Array(size), inUse: new Uint8Array(size) };
  const listed = new Uint8Array(size);
  let i = skipSpace(text, xrefAt + 4);
  for (;;) {
    const section = /^(\d+) (\d+)\s+/.exec(text.slice(i, i + 40));
    if (!section) break;
    i += section[0].length;
    const first = Number(section[1]);
    const count = Number(section[2]);
    if (first + count > size) unexpected('a table larger than its /Size');
    // Each line is 20 bytes, `oooooooooo ggggg n` and its end: read digit by digit, no
    // regular expression or slice per line.
    for (let n = first; n < first + count; n++, i += 20) {
      const kind = text[i + 17];
      if (text.charCodeAt(i + 10) !== 0x20 || text.charCodeAt(i + 16) !== 0x20 || (kind !== 'n' && kind !== 'f')) unexpected('a bad xref line');
      xref.offset[n] = digits(text, i, 10);
      xref.generation[n] = digits(text, i + 11, 5);
      xref.inUse[n] = kind === 'n' ? 1 : 0;
      listed[n] = 1;
    }
  }
  // pdf-lib leaves a blank line before the trailer.
  if (skipSpace(text, i) !== trailerWord) unexpected('no trailer after the table');
  return { xref, listed, trailer, size };
}

export const refNumber = (value: string | undefined) => Number(/^(\d+)\s+0\s+R$/.exec(value ?? '')?.[1] ?? unexpected('a reference'));

/** Where object `n`'s dictionary starts (its `<<`), checking the object is where the table says. */
export function objectDictionaryAt(text: string, n: number, offset: number): number {
  const header = new RegExp(`^${n}\\s+0\\s+obj\\s*`).exec(text.slice(offset, offset + 40)) ?? unexpected(`object ${n} not at its offset`);
  return offset + header[0].length;
}

/** The decimal number of `width` digits at `i`. */
function digits(text: string, i: number, width: number): number {
  let value = 0;
  for (let end = i + width; i < end; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) unexpected('a bad xref line');
    value = value * 10 + digit;
  }
  return value;
}

/** `value` as `width` decimal digits into `bytes` at `at`. */
function writeDigits(bytes: Buffer, at: number, value: number, width: number): void {
  for (let i = at + width - 1; i >= at; i--, value = Math.floor(value / 10)) bytes[i] = 0x30 + (value % 10);
}


/** A file's one classic table and trailer, and its objects by offset: what its writers need besides its bytes. */
export interface ClassicTable {
  /** Where the table starts (its `xref` keyword): the last object runs to it. */
  xrefAt: number;
  xref: Xref;
  trailer: Entry[];
  /** The in-use object numbers, by offset. */
  order: Uint32Array;
  size: number;
}

/** A file of the shape above, read whole: its bytes and their text (latin1, a character a byte) besides its table. */
export interface ClassicPdf extends ClassicTable {
  pdf: Buffer;
  text: string;
}

/**
 * The file read, or Shape thrown; `trailerKeys` are the trailer entries the caller accepts.
 * `gaps`: a table in several subsections that leave numbers out (pdf-lib's save after it deleted
 * objects) is read too; writeClassicPdf would write those numbers as free rows, so only a caller
 * that does not write the file back (object-streams.ts) asks for it.
 */
export function readClassicPdf(pdf: Buffer, trailerKeys: string[], { gaps = false } = {}): ClassicPdf {
  const text = pdf.toString('latin1');
  if (!text.startsWith('%PDF-')) unexpected('no header');
  const xrefAt = lastStartxref(text);
  return { pdf, text, ...readClassicTable(text, xrefAt, xrefAt, trailerKeys, gaps) };
}

/**
 * The table at `at` in `text` (the file, or its bytes from some point on, as latin1) that the
 * file's startxref puts at `xrefAt`, checked as readClassicPdf checks it: the spooled finish
 * (spooled/opened-pdf.ts) reads only the file's end from the table on.
 */
export function readClassicTable(text: string, at: number, xrefAt: number, trailerKeys: string[], gaps: boolean): ClassicTable {
  if (!text.startsWith('xref', at)) unexpected('an xref stream');
  const { xref, listed, trailer, size } = readXrefTable(text, at);
  if (!gaps && listed.includes(0)) unexpected('a gap in the object table');
  // Only a single, unencrypted, classic table: anything else is pdf-lib's.
  for (const { key } of trailer) if (!trailerKeys.includes(key)) unexpected(`trailer key ${key}`);
  const used: number[] = [];
  for (let n = 0; n < size; n++) if (xref.inUse[n]) used.push(n);
  const order = Uint32Array.from(used).sort((a, b) => xref.offset[a] - xref.offset[b]);
  if (!order.length) unexpected('no objects');
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    if (xref.generation[n] !== 0 || xref.offset[n] >= xrefAt || (k > 0 && xref.offset[n] <= xref.offset[order[k - 1]])) unexpected('an unusual object table');
  }
  return { xrefAt, xref, trailer, order, size };
}

/** Where the `k`-th object by offset ends: where the next one starts, or the table for the last. */
export const objectEnd = (file: ClassicTable, k: number): number => (k + 1 < file.order.length ? file.xref.offset[file.order[k + 1]] : file.xrefAt);

/** The trailer's reference `key` (Root, Info) as an object number, checked to be in use. */
export function trailerObject(file: ClassicTable, key: string): number {
  const n = refNumber(file.trailer.find((entry) => entry.key === key)?.value);
  return file.xref.inUse[n] ? n : unexpected(`no ${key}`);
}

/** Where object `n`'s dictionary (or other value) starts, checked to be in use and where the table says. */
export function objectValueAt(file: ClassicPdf, n: number): number {
  if (!file.xref.inUse[n]) unexpected(`object ${n} not in use`);
  return objectDictionaryAt(file.text, n, file.xref.offset[n]);
}

/** Object `n`'s dictionary entries (a stream's too, without its data). */
export function objectDictionary(file: ClassicPdf, n: number): Entry[] {
  return readDictionary(file.text, objectValueAt(file, n)).entries;
}

/**
 * The file written again: each object copied byte for byte (it runs to the next one's offset),
 * those in `replaced` written anew in their place (as `n 0 obj <source> endobj`), the `added`
 * ones (numbered from the file's /Size on, in order) after them, and a new table.
 */
export function writeClassicPdf(file: ClassicPdf, replaced: Map<number, string>, added: Buffer[] = []): Buffer {
  const { pdf, order, xrefAt, xref } = file;
  const size = file.size + added.length;
  const offsets = new Float64Array(size);
  // Unchanged objects are copied in runs (one slice from one rewritten object to the next),
  // each shifted by what the rewritten ones before it grew or shrank.
  const parts: Buffer[] = [];
  let runFrom = 0;
  let shift = 0;
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    const offset = xref.offset[n];
    const rewritten = replaced.get(n);
    offsets[n] = offset + shift;
    if (rewritten === undefined) continue;
    const end = objectEnd(file, k);
    const part = rewrittenObject(n, rewritten);
    parts.push(pdf.subarray(runFrom, offset), part);
    shift += part.length - (end - offset);
    runFrom = end;
  }
  parts.push(pdf.subarray(runFrom, xrefAt));
  let position = xrefAt + shift;
  // The last object ran to the table: a new one starts on a line of its own.
  if (added.length && pdf[xrefAt - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    position += 1;
  }
  added.forEach((bytes, index) => {
    const n = file.size + index;
    const part = Buffer.concat([Buffer.from(`${n} 0 obj\n`, 'latin1'), bytes, Buffer.from('\nendobj\n', 'latin1')]);
    offsets[n] = position;
    parts.push(part);
    position += part.length;
  });
  return Buffer.concat([...parts, ...classicTableEnd(file, offsets, size, position)]);
}

/** An object written anew in the file (`n 0 obj <source> endobj`), as writeClassicPdf puts a replaced one. */
export const rewrittenObject = (n: number, source: string) => Buffer.from(`${n} 0 obj\n${source}\nendobj\n`, 'latin1');

/**
 * What ends the file writeClassicPdf writes: the table of `size` objects (in use at `offsets`,
 * the file's free ones as they were) at `position`, its trailer (the file's, with the new /Size)
 * and startxref; in parts, for the caller to write or join with the rest.
 */
export function classicTableEnd(file: ClassicTable, offsets: Float64Array, size: number, position: number): Buffer[] {
  const { xref, trailer } = file;
  const head = Buffer.from(`xref\n0 ${size}\n`, 'latin1');
  const table = Buffer.alloc(20 * size, ' ');
  for (let n = 0; n < size; n++) {
    const free = n < file.size && !xref.inUse[n];
    writeDigits(table, 20 * n, free ? xref.offset[n] : offsets[n], 10);
    writeDigits(table, 20 * n + 11, free ? xref.generation[n] : 0, 5);
    table[20 * n + 17] = free ? 0x66 : 0x6e;
    table[20 * n + 19] = 0x0a;
  }
  const newTrailer = trailer.map((entry) => (entry.key === 'Size' ? { key: 'Size', value: String(size) } : entry));
  const tail = Buffer.from(`trailer\n${writeDictionary(newTrailer)}\nstartxref\n${position}\n%%EOF\n`, 'latin1');
  return [head, table, tail];
}
