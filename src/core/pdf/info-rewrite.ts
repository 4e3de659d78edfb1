/**
 * The finishing step's fast path: a Chromium PDF's Info dictionary (and, when asked, its
 * catalog's /Lang and /ViewerPreferences) rewritten without parsing the rest of the file.
 * Chromium (Skia) writes one classic cross-reference table, no object streams, no incremental
 * updates, no /ID and no encryption: every other object is copied byte for byte, the two
 * rewritten ones take their old place, and the table is written again with the shifted
 * offsets. A few hundred microseconds for an invoice, against 3 to 4 ms for pdf-lib's parse
 * and save of the whole file (bench/HISTORY.md, where a batch document's time goes).
 *
 * Anything of another shape (another producer's PDF, an xref stream, a /Prev, a catalog with
 * viewer preferences of its own) answers undefined, and finish-pdf.ts takes pdf-lib's path.
 * Deterministic like that path: the output is a function of the input bytes and the fields.
 */
import { readXrefRows } from './xref-table.js';

/** A dictionary entry as it stands in the file: the key without its slash, the value's source text. */
interface Entry {
  key: string;
  value: string;
}

export interface InfoEdit {
  /** Text fields to set (Title, Author, Subject, Keywords, Creator, Producer): written as given. */
  text: Record<string, string>;
  /** Date fields to set (CreationDate, ModDate). */
  dates: Record<string, Date>;
  /** The catalog's /Lang, replacing Chromium's. */
  language?: string;
  /** Set /ViewerPreferences /DisplayDocTitle true (a viewer shows the title, not the file name). */
  displayDocTitle?: boolean;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set('()<>[]{}/%'.split('').map((c) => c.charCodeAt(0)));

class Shape extends Error {}
/** Says the file is not of a shape this path knows: editInPlace then answers undefined. */
export const unexpected = (what: string): never => {
  throw new Shape(what);
};

/** Index just past the value (or token) starting at `i` in `text` (latin1 source of the file). */
function skipValue(text: string, i: number): number {
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

function skipSpace(text: string, i: number): number {
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
function readDictionary(text: string, i: number): { entries: Entry[]; end: number } {
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

const writeDictionary = (entries: Entry[]) => `<<${entries.map((entry) => `/${entry.key} ${entry.value}`).join('\n')}>>`;

/** A text string: literal when plain ASCII (escaped), else UTF-16BE with its byte order mark. */
export function pdfTextString(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return `(${value.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  let hex = 'FEFF';
  for (let i = 0; i < value.length; i++) hex += value.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/** A literal or hex text string's value (PDFDocEncoding read as latin1, which covers Chromium's). */
export function decodeTextString(source: string): string | undefined {
  let bytes: number[] = [];
  if (source.startsWith('(')) {
    const body = source.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c !== '\\') {
        bytes.push(body.charCodeAt(i));
        continue;
      }
      const next = body[++i];
      const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (next in simple) bytes.push(simple[next]);
      else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(body.slice(i))![0];
        bytes.push(parseInt(octal, 8) & 0xff);
        i += octal.length - 1;
      } else if (next === '\r' && body[i + 1] === '\n') i++;
      else if (next !== '\n' && next !== '\r') bytes.push(body.charCodeAt(i));
    }
  } else if (source.startsWith('<')) {
    const hex = source.slice(1, -1).replace(/\s/g, '');
    bytes = (hex.length % 2 ? `${hex}0` : hex).match(/../g)?.map((pair) => parseInt(pair, 16)) ?? [];
  } else return undefined;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    let text = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) text += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
    return text;
  }
  return String.fromCharCode(...bytes);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The date form pdf-lib writes (D:YYYYMMDDHHmmSSZ, UTC), so both paths date a document alike. */
export const pdfDate = (date: Date) =>
  `(D:${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z)`;

interface XrefEntry {
  offset: number;
  generation: number;
  inUse: boolean;
}

/** The file's one cross-reference table and its trailer. */
function readXref(text: string) {
  const startxrefAt = text.lastIndexOf('startxref');
  if (startxrefAt < 0) unexpected('no startxref');
  const xrefAt = Number(/^startxref\s+(\d+)/.exec(text.slice(startxrefAt))?.[1] ?? unexpected('a bad startxref'));
  if (!text.startsWith('xref', xrefAt)) unexpected('an xref stream');
  const table = readXrefRows(text, xrefAt + 4) ?? unexpected('a bad xref line');
  const entries = new Map<number, XrefEntry>();
  for (const { n, offset, generation, inUse } of table.rows) entries.set(n, { offset, generation, inUse });
  const i = table.end;
  if (!text.startsWith('trailer', i)) unexpected('no trailer');
  const trailerAt = skipSpace(text, i + 7);
  const trailer = readDictionary(text, trailerAt).entries;
  return { xrefAt, entries, trailer, trailerSource: text.slice(i, readDictionary(text, trailerAt).end) };
}

const refNumber = (value: string | undefined) => Number(/^(\d+)\s+0\s+R$/.exec(value ?? '')?.[1] ?? unexpected('a reference'));

/** Where object `n`'s dictionary starts (its `<<`), checking the object is where the table says. */
function objectDictionaryAt(text: string, n: number, offset: number): number {
  const header = new RegExp(`^${n}\\s+0\\s+obj\\s*`).exec(text.slice(offset, offset + 40)) ?? unexpected(`object ${n} not at its offset`);
  return offset + header[0].length;
}

/** A Chromium PDF read for an edit in place: its latin1 text, its one object table and its trailer. */
export interface PlainPdf {
  text: string;
  xrefAt: number;
  entries: Map<number, XrefEntry>;
  /** The in-use objects by offset. */
  objects: { n: number; offset: number }[];
  trailer: Entry[];
  rootNumber: number;
  infoNumber: number;
}

/** The objects a step rewrites: number to its new value's source (`null` empties one no longer used). */
export type Replacements = Map<number, string>;

/**
 * `pdf` with the objects `edit` names replaced and every other copied byte for byte, or
 * undefined when the file is not of the shape this path knows (then the caller uses pdf-lib).
 * `edit` may call `unexpected` (through the readers below) to say so.
 */
export function editInPlace(pdf: Buffer, edit: (plain: PlainPdf) => Replacements): Buffer | undefined {
  try {
    const plain = readPlainPdf(pdf);
    return writeReplaced(pdf, plain, edit(plain));
  } catch (error) {
    if (error instanceof Shape) return undefined;
    throw error;
  }
}

/** Object `n`'s dictionary entries, read where the table says it is. */
export function readObjectDictionary(plain: PlainPdf, n: number): Entry[] {
  const entry = plain.entries.get(n);
  if (!entry?.inUse) unexpected(`object ${n} not in use`);
  return readDictionary(plain.text, objectDictionaryAt(plain.text, n, entry!.offset)).entries;
}

export { refNumber, writeDictionary, type Entry as DictionaryEntry };

/**
 * The PDF with its Info (and catalog) rewritten, or undefined when it is not of the shape
 * this path knows: the caller then edits it with pdf-lib.
 */
export function rewriteInfo(pdf: Buffer, edit: InfoEdit, producerOf: (engine: string | undefined) => string): Buffer | undefined {
  return editInPlace(pdf, (plain) => infoReplacements(plain, edit, producerOf));
}

function readPlainPdf(pdf: Buffer): PlainPdf {
  const text = pdf.toString('latin1');
  if (!text.startsWith('%PDF-')) unexpected('no header');
  const { xrefAt, entries, trailer } = readXref(text);
  const keys = new Set(trailer.map((entry) => entry.key));
  // Only a single, unencrypted, classic table: anything else is pdf-lib's.
  for (const key of keys) if (!['Size', 'Root', 'Info'].includes(key)) unexpected(`trailer key ${key}`);
  const infoNumber = refNumber(trailer.find((entry) => entry.key === 'Info')?.value);
  const rootNumber = refNumber(trailer.find((entry) => entry.key === 'Root')?.value);

  const objects = [...entries].filter(([, entry]) => entry.inUse).map(([n, entry]) => ({ n, ...entry }));
  objects.sort((a, b) => a.offset - b.offset);
  for (let k = 0; k < objects.length; k++) {
    const object = objects[k];
    if (object.generation !== 0 || object.offset >= xrefAt || (k > 0 && object.offset <= objects[k - 1].offset)) unexpected('an unusual object table');
  }
  if (!objects.length || !entries.get(infoNumber)?.inUse || !entries.get(rootNumber)?.inUse) unexpected('no Info or Root');
  return { text, xrefAt, entries, objects, trailer, rootNumber, infoNumber };
}

function infoReplacements(plain: PlainPdf, edit: InfoEdit, producerOf: (engine: string | undefined) => string): Replacements {
  const { infoNumber, rootNumber } = plain;
  const replaced: Replacements = new Map();
  // Info: every field Chromium wrote stays unless set here; the Producer names Chromium's engine in brackets.
  const info = readObjectDictionary(plain, infoNumber);
  const engineSource = info.find((entry) => entry.key === 'Producer')?.value;
  const set = new Map(info.map((entry) => [entry.key, entry.value]));
  set.set('Producer', pdfTextString(producerOf(engineSource === undefined ? undefined : decodeTextString(engineSource))));
  for (const [key, value] of Object.entries(edit.text)) set.set(key, pdfTextString(value));
  for (const [key, date] of Object.entries(edit.dates)) set.set(key, pdfDate(date));
  replaced.set(infoNumber, writeDictionary([...set].map(([key, value]) => ({ key, value }))));

  if (edit.language !== undefined || edit.displayDocTitle) {
    let catalog = readObjectDictionary(plain, rootNumber);
    if (edit.displayDocTitle) {
      const preferences = catalog.find((entry) => entry.key === 'ViewerPreferences');
      if (!preferences) catalog.push({ key: 'ViewerPreferences', value: '<</DisplayDocTitle true>>' });
      else if (!/\/DisplayDocTitle\s+true\b/.test(preferences.value)) unexpected('viewer preferences of its own');
    }
    if (edit.language !== undefined) {
      // A language tag (document-metadata.ts checks it): letters, digits and hyphens, nothing to escape.
      if (!/^[A-Za-z0-9-]+$/.test(edit.language)) unexpected('a language to escape');
      catalog = [...catalog.filter((entry) => entry.key !== 'Lang'), { key: 'Lang', value: `(${edit.language})` }];
    }
    replaced.set(rootNumber, writeDictionary(catalog));
  }
  return replaced;
}

/** `value` as `width` decimal digits, zero-padded, at `at`. */
function writeDigits(bytes: Buffer, at: number, value: number, width: number): void {
  for (let k = width - 1; k >= 0; k--, value = Math.floor(value / 10)) bytes[at + k] = 0x30 + (value % 10);
}

function writeReplaced(pdf: Buffer, plain: PlainPdf, replaced: Replacements): Buffer {
  const { objects, xrefAt, entries, trailer } = plain;
  // Copy the file in spans between the rewritten objects (each object runs to the next one's
  // offset), not object by object: a tagged PDF has 10^5 objects and a few change; every other
  // object keeps its bytes and moves by what the rewritten ones before it grew or shrank.
  const parts: Buffer[] = [];
  const size = Number(trailer.find((entry) => entry.key === 'Size')?.value);
  for (let n = 0; n < size; n++) if (!entries.has(n)) unexpected('a gap in the object table');
  if (entries.size !== size) unexpected('a table larger than its /Size');
  const offsets = new Float64Array(size);
  let copiedTo = 0;
  let shift = 0;
  for (let k = 0; k < objects.length; k++) {
    const { n, offset } = objects[k];
    offsets[n] = offset + shift;
    const rewritten = replaced.get(n);
    if (rewritten === undefined) continue;
    const end = k + 1 < objects.length ? objects[k + 1].offset : xrefAt;
    const part = Buffer.from(`${n} 0 obj\n${rewritten}\nendobj\n`, 'latin1');
    parts.push(pdf.subarray(copiedTo, offset), part);
    shift += part.length - (end - offset);
    copiedTo = end;
  }
  parts.push(pdf.subarray(copiedTo, xrefAt));
  const position = xrefAt + shift;
  // The table's rows written as bytes, 20 to a row: a string of 10^5 padded numbers costs more.
  const head = Buffer.from(`xref\n0 ${size}\n`, 'latin1');
  const rows = Buffer.alloc(size * 20, 0x20);
  for (let n = 0; n < size; n++) {
    const entry = entries.get(n)!;
    const at = n * 20;
    writeDigits(rows, at, entry.inUse ? offsets[n] : entry.offset, 10);
    writeDigits(rows, at + 11, entry.inUse ? 0 : entry.generation, 5);
    rows[at + 17] = entry.inUse ? 0x6e : 0x66;
    rows[at + 19] = 0x0a;
  }
  parts.push(head, rows, Buffer.from(`trailer\n${writeDictionary(trailer)}\nstartxref\n${position}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
