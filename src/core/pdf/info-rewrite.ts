/**
 * The finishing step's fast path: a Chromium PDF's Info dictionary (and, when asked, its
 * catalog's /Lang and /ViewerPreferences) rewritten without parsing the rest of the file.
 * Chromium (Skia) writes one classic cross-reference table, no object streams, no incremental
 * updates, no /ID and no encryption (classic-pdf.ts reads and writes that shape): every other
 * object is copied byte for byte, the two rewritten ones take their old place, and the table is
 * written again with the shifted offsets. A few hundred microseconds for an invoice, against 3
 * to 4 ms for pdf-lib's parse and save of the whole file (bench/HISTORY.md, where a batch
 * document's time goes).
 *
 * Anything of another shape (another producer's PDF, an xref stream, a /Prev, a catalog with
 * viewer preferences of its own) answers undefined, and finish-pdf.ts takes pdf-lib's path.
 * Deterministic like that path: the output is a function of the input bytes and the fields.
 */
import { objectDictionary, readClassicPdf, trailerObject, unexpected, unlessOtherShape, writeClassicPdf, writeDictionary, type ClassicPdf, type ClassicTable, type Entry } from './classic-pdf.js';
import { packObjectStreamsWith } from './object-streams.js';

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

/** The Producer to write, given the one the file names (Chromium's engine, "Skia/PDF m156"). */
export type ProducerOf = (engine: string | undefined) => string;

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

/**
 * The PDF with its Info (and catalog) rewritten, or undefined when it is not of the shape
 * this path knows: the caller then edits it with pdf-lib.
 */
export function rewriteInfo(pdf: Buffer, edit: InfoEdit, producerOf: ProducerOf): Buffer | undefined {
  return unlessOtherShape(() => {
    const { file, replaced } = readAndEdit(pdf, edit, producerOf);
    return writeClassicPdf(file, replaced);
  });
}

/**
 * rewriteInfo and then packObjectStreams (object-streams.ts) in one pass: the file read once and
 * written once, the same bytes as the two steps one after the other. Undefined for another shape.
 */
export function rewriteInfoPacked(pdf: Buffer, edit: InfoEdit, producerOf: ProducerOf): Buffer | undefined {
  return unlessOtherShape(() => {
    const { file, replaced } = readAndEdit(pdf, edit, producerOf);
    return packObjectStreamsWith(file, replaced);
  });
}

/** The trailer's entries of Chromium's files (and pdf-lib's saves): no /ID, no /Encrypt, no /Prev. */
export const CHROMIUM_TRAILER_KEYS = ['Size', 'Root', 'Info'];

/** The file read and its Info (and catalog) written anew, for the two writers above. */
function readAndEdit(pdf: Buffer, edit: InfoEdit, producerOf: ProducerOf): { file: ClassicPdf; replaced: Map<number, string> } {
  const file = readClassicPdf(pdf, CHROMIUM_TRAILER_KEYS);
  return { file, replaced: infoObjects(file, (n) => objectDictionary(file, n), edit, producerOf) };
}

/**
 * The Info and, when the edit asks, the catalog, written anew (object number to source).
 * `dictionary` reads an object's dictionary: from the file's text in memory, from the two
 * objects read off the disk in the spooled finish (spooled/finish-file.ts).
 */
export function infoObjects(file: ClassicTable, dictionary: (n: number) => Entry[], edit: InfoEdit, producerOf: ProducerOf): Map<number, string> {
  const infoNumber = trailerObject(file, 'Info');
  const rootNumber = trailerObject(file, 'Root');

  const replaced = new Map<number, string>();
  // Info: every field Chromium wrote stays unless set here; the Producer names Chromium's engine in brackets.
  const info = dictionary(infoNumber);
  const engineSource = info.find((entry) => entry.key === 'Producer')?.value;
  const set = new Map(info.map((entry) => [entry.key, entry.value]));
  set.set('Producer', pdfTextString(producerOf(engineSource === undefined ? undefined : decodeTextString(engineSource))));
  for (const [key, value] of Object.entries(edit.text)) set.set(key, pdfTextString(value));
  for (const [key, date] of Object.entries(edit.dates)) set.set(key, pdfDate(date));
  replaced.set(infoNumber, writeDictionary([...set].map(([key, value]) => ({ key, value }))));

  if (edit.language !== undefined || edit.displayDocTitle) {
    let catalog = dictionary(rootNumber);
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
