/**
 * A tagged PDF made small: its objects packed into compressed object streams (PDF 1.5), with a
 * cross-reference stream. Chromium writes every structure element as an object of its own, in
 * plain text (a /StructElem dictionary with /S, /P, /K, /Pg, and for a table cell /A attributes
 * and an /ID): a 200-page table is some 10^5 of them, 25 to 30 times the untagged file
 * (bench/tagged-cost.ts, bench/README.md). Deflated together they take a tenth of that, the
 * same structure tree, object for object.
 *
 * The file is rewritten, not parsed: each object is copied by the offsets of the file's one
 * classic cross-reference table (the shape Chromium and pdf-lib write, read by classic-pdf.ts); a stream object stays
 * where it is (PDF forbids streams in object streams), and so do the catalog, the Info and the
 * page tree (PLAIN_TYPES); every other goes into an object stream.
 * A file of another shape (an xref stream already, an update section, encryption, an object of
 * another generation) is returned as it is; a trailer's /ID moves to the cross-reference stream. Deterministic: the output is a function of the input.
 * pdf-lib could write object streams too, but takes 20 s for a 30-page tagged table.
 *
 * The pieces below (the header, an object's body and whether it stays plain, the object streams
 * and the rows) are exported for the spooled finish (spooled/packed-file.ts), which writes the
 * same file from a print on disk without holding it.
 */
import zlib from 'node:zlib';
import { objectEnd, readClassicPdf, rewrittenObject, trailerObject, unlessOtherShape, type ClassicPdf, type ClassicTable } from './classic-pdf.js';

/** Objects per object stream: big enough to compress well, small enough that a reader inflates little to reach one. Level 6 (zlib's default): level 1 saves little time and a tenth more bytes. */
export const OBJECTS_PER_STREAM = 200;

/**
 * Kept as plain objects: the catalog, the Info dictionary and the page tree, a few hundred small
 * objects, which tools that read a PDF as text keep finding (the service's page count,
 * limits/pdf-pages.ts, reads the page tree where the cross-reference stream puts it, never
 * inside an object stream).
 */
const PLAIN_TYPES = /\/Type\s*\/(?:Catalog|Pages|Page)(?![A-Za-z0-9_.#-])/;

/** The trailer's /Root, /Info and /ID as written, which the cross-reference stream's dictionary carries. */
export interface PackedTrailer {
  root: string;
  info?: string;
  infoNumber: number;
  id?: string;
}

/** The trailer's entries this writes again; throws Shape when the catalog (or the Info, when there is one) is not an object in use. */
export function packedTrailerOf(file: ClassicTable): PackedTrailer {
  const trailerValue = (key: string) => file.trailer.find((entry) => entry.key === key)?.value;
  trailerObject(file, 'Root');
  const info = trailerValue('Info');
  return { root: trailerValue('Root')!, info, infoNumber: info === undefined ? -1 : trailerObject(file, 'Info'), id: trailerValue('ID') };
}

/** The PDF with its objects in object streams, or the PDF itself when its shape is not one this knows (above). */
export function packObjectStreams(pdf: Buffer): Buffer {
  const file = unlessOtherShape(() => readClassicPdf(pdf, ['Size', 'Root', 'Info', 'ID'], { gaps: true }));
  const trailer = file && unlessOtherShape(() => packedTrailerOf(file));
  return (file && trailer && pack(file, trailer, new Map())) ?? pdf;
}

/**
 * The file packed with the objects of `replaced` (number to source) written anew in their
 * place: the bytes packObjectStreams(writeClassicPdf(file, replaced)) gives, without writing and
 * reading the whole file once more between the two. The default render's finishing
 * (finish-print.ts) rewrites the Info so and packs in one pass. Undefined for another shape.
 */
export function packObjectStreamsWith(file: ClassicPdf, replaced: Map<number, string>): Buffer | undefined {
  return unlessOtherShape(() => pack(file, packedTrailerOf(file), replaced));
}

/**
 * The packed file's first bytes for a file that starts with `text`, or undefined when its header
 * is not `%PDF-1.x`. A binary comment after the header, as before: transfer programs then treat
 * the file as binary. Object streams are PDF 1.5; a later version (a PDF/A's 1.7) is kept. Only
 * the file's first two lines are read.
 */
export function packedHeader(text: string): string | undefined {
  const header = /^%PDF-1\.([0-7])[^\n]*\n(%[^\n]*\n)?/.exec(text);
  return header ? `%PDF-1.${Math.max(5, Number(header[1]))}\n${header[2] ?? '%\xe2\xe3\xcf\xd3\n'}` : undefined;
}

/**
 * Object `n`'s body (between `n 0 obj` and its last `endobj`, trimmed) in `text`, where it runs
 * from `offset` to `end`; undefined when it does not open and close so. Index arithmetic, no
 * regular expression over an object: a page's content stream is megabytes.
 */
export function objectBody(text: string, n: number, offset: number, end: number): string | undefined {
  const opening = `${n} 0 obj`;
  const close = text.lastIndexOf('endobj', end);
  if (!text.startsWith(opening, offset) || close < offset) return undefined;
  return text.slice(offset + opening.length, close).trim();
}

/** Whether an object stays in the file as it is: a stream (PDF forbids streams in object streams), the Info, or a PLAIN_TYPES one. */
export const staysPlain = (n: number, body: string, trailer: PackedTrailer) => body.endsWith('endstream') || n === trailer.infoNumber || PLAIN_TYPES.test(body);

/**
 * Where each object of the packed file is, as its cross-reference stream's rows (seven bytes a
 * row, /W [1 4 2], written straight into one buffer as each place is known): in the file at an
 * offset (type 1) or the index-th object of an object stream (type 2); no object per entry (a
 * tagged report has tens of thousands). `capacity`: the largest object number plus one.
 */
export class PackedPlaces {
  private readonly rows: Buffer;

  constructor(capacity: number) {
    this.rows = Buffer.alloc(capacity * 7);
  }

  inFile(n: number, offset: number): void {
    this.rows[n * 7] = 1;
    this.rows.writeUInt32BE(offset, n * 7 + 1);
  }

  inStream(n: number, stream: number, index: number): void {
    this.rows[n * 7] = 2;
    this.rows.writeUInt32BE(stream, n * 7 + 1);
    this.rows.writeUInt16BE(index, n * 7 + 5);
  }

  /** The object stream numbered `stream` holding `group` (in order), with each one's place recorded; in parts, for the caller to write or join. */
  objectStream(stream: number, group: { n: number; body: string }[]): Buffer[] {
    let offsets = '';
    let bodies = '';
    group.forEach((object, index) => {
      offsets += `${object.n} ${bodies.length} `;
      bodies += `${object.body}\n`;
      this.inStream(object.n, stream, index);
    });
    const data = zlib.deflateSync(Buffer.from(offsets + bodies, 'latin1'), { level: 6 });
    const dictionary = `<</Type /ObjStm /N ${group.length} /First ${offsets.length} /Filter /FlateDecode /Length ${data.length}>>`;
    return [Buffer.from(`${stream} 0 obj\n${dictionary}\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')];
  }

  /** The file's end: the cross-reference stream, object `xrefNumber` (the last) at `xrefAt`, with the rows of every object before it, and startxref; in parts. */
  xrefStream(xrefNumber: number, xrefAt: number, trailer: PackedTrailer): Buffer[] {
    this.inFile(xrefNumber, xrefAt);
    const size = xrefNumber + 1;
    // Object 0 heads the free list; every other number left out is a free row of zeros.
    if (this.rows[0] === 0) this.rows.writeUInt16BE(0xffff, 5);
    const rows = this.rows.subarray(0, size * 7);
    const data = zlib.deflateSync(rows);
    const info = trailer.info ? ` /Info ${trailer.info}` : '';
    const id = trailer.id ? ` /ID ${trailer.id}` : '';
    const dictionary = `<</Type /XRef /Size ${size} /W [1 4 2] /Root ${trailer.root}${info}${id} /Filter /FlateDecode /Length ${data.length}>>`;
    return [Buffer.from(`${xrefNumber} 0 obj\n${dictionary}\nstream\n`, 'latin1'), data, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1')];
  }
}

/** A kept object's bytes end a line: the next one starts on a line of its own. */
const endsLine = (bytes: Buffer) => (bytes.at(-1) === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from('\n')]));

function pack(file: ClassicPdf, trailer: PackedTrailer, replaced: Map<number, string>): Buffer | undefined {
  const header = packedHeader(file.text);
  if (header === undefined) return undefined;

  const { text, order, xref, size: fileSize } = file;
  const kept: { n: number; bytes: Buffer }[] = [];
  const packed: { n: number; body: string }[] = [];
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    const offset = xref.offset[n];
    const end = objectEnd(file, k);
    const rewritten = replaced.get(n);
    // A rewritten object as writeClassicPdf writes it (classic-pdf.ts).
    const body = rewritten === undefined ? objectBody(text, n, offset, end) : rewritten.trim();
    if (body === undefined) return undefined;
    if (!staysPlain(n, body, trailer)) packed.push({ n, body });
    else kept.push({ n, bytes: rewritten === undefined ? file.pdf.subarray(offset, end) : rewrittenObject(n, rewritten) });
  }

  // Numbers after the file's own: the object streams, then the cross-reference stream.
  const streams = Math.ceil(packed.length / OBJECTS_PER_STREAM);
  const xrefNumber = fileSize + streams;
  const places = new PackedPlaces(xrefNumber + 1);
  const parts: Buffer[] = [Buffer.from(header, 'latin1')];
  let position = parts[0].length;
  const append = (n: number, bytes: Buffer[]) => {
    places.inFile(n, position);
    for (const part of bytes) {
      parts.push(part);
      position += part.length;
    }
  };
  for (const object of kept) append(object.n, [endsLine(object.bytes)]);
  for (let s = 0; s < streams; s++) {
    const stream = fileSize + s;
    append(stream, places.objectStream(stream, packed.slice(s * OBJECTS_PER_STREAM, (s + 1) * OBJECTS_PER_STREAM)));
  }
  parts.push(...places.xrefStream(xrefNumber, position, trailer));
  return Buffer.concat(parts);
}
