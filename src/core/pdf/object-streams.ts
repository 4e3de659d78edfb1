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
 */
import zlib from 'node:zlib';
import { readClassicPdf, trailerObject, unlessOtherShape, type ClassicPdf } from './classic-pdf.js';

/** Objects per object stream: big enough to compress well, small enough that a reader inflates little to reach one. Level 6 (zlib's default): level 1 saves little time and a tenth more bytes. */
const OBJECTS_PER_STREAM = 200;

/**
 * Kept as plain objects: the catalog, the Info dictionary and the page tree, a few hundred small
 * objects, which tools that read a PDF as text keep finding (the service's page count,
 * limits/pdf-pages.ts, reads the page tree where the cross-reference stream puts it, never
 * inside an object stream).
 */
const PLAIN_TYPES = /\/Type\s*\/(?:Catalog|Pages|Page)(?![A-Za-z0-9_.#-])/;

interface Table {
  file: ClassicPdf;
  /** The trailer's /Root, /Info and /ID as written. */
  root: string;
  info?: string;
  infoNumber: number;
  id?: string;
}

/** The trailer's entries this writes again; throws Shape when the catalog (or the Info, when there is one) is not an object in use. */
function tableOf(file: ClassicPdf): Table {
  const trailerValue = (key: string) => file.trailer.find((entry) => entry.key === key)?.value;
  trailerObject(file, 'Root');
  const info = trailerValue('Info');
  return { file, root: trailerValue('Root')!, info, infoNumber: info === undefined ? -1 : trailerObject(file, 'Info'), id: trailerValue('ID') };
}

/** The PDF with its objects in object streams, or the PDF itself when its shape is not one this knows (above). */
export function packObjectStreams(pdf: Buffer): Buffer {
  const table = unlessOtherShape(() => tableOf(readClassicPdf(pdf, ['Size', 'Root', 'Info', 'ID'], { gaps: true })));
  return (table && pack(table, new Map())) ?? pdf;
}

/**
 * The file packed with the objects of `replaced` (number to source) written anew in their
 * place: the bytes packObjectStreams(writeClassicPdf(file, replaced)) gives, without writing and
 * reading the whole file once more between the two. The default render's finishing
 * (finish-print.ts) rewrites the Info so and packs in one pass. Undefined for another shape.
 */
export function packObjectStreamsWith(file: ClassicPdf, replaced: Map<number, string>): Buffer | undefined {
  return unlessOtherShape(() => pack(tableOf(file), replaced));
}

function pack(table: Table, replaced: Map<number, string>): Buffer | undefined {
  const header = /^%PDF-1\.([0-7])[^\n]*\n(%[^\n]*\n)?/.exec(table.file.text);
  if (!header) return undefined;

  const { text, order, xref, xrefAt: tableAt, size: fileSize } = table.file;
  const kept: { n: number; bytes: Buffer }[] = [];
  const packed: { n: number; body: string }[] = [];
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    const offset = xref.offset[n];
    const end = k + 1 < order.length ? xref.offset[order[k + 1]] : tableAt;
    const rewritten = replaced.get(n);
    // Index arithmetic, no regular expression over an object: a page's content stream is megabytes.
    const opening = `${n} 0 obj`;
    const close = text.lastIndexOf('endobj', end);
    if (rewritten === undefined && (!text.startsWith(opening, offset) || close < offset)) return undefined;
    // A rewritten object as writeClassicPdf writes it (classic-pdf.ts).
    const body = rewritten === undefined ? text.slice(offset + opening.length, close).trim() : rewritten.trim();
    if (!body.endsWith('endstream') && n !== table.infoNumber && !PLAIN_TYPES.test(body)) packed.push({ n, body });
    else kept.push({ n, bytes: rewritten === undefined ? table.file.pdf.subarray(offset, end) : Buffer.from(`${opening}\n${rewritten}\nendobj\n`, 'latin1') });
  }

  // Numbers after the file's own: the object streams, then the cross-reference stream.
  const streams = Math.ceil(packed.length / OBJECTS_PER_STREAM);
  const xrefNumber = fileSize + streams;
  const size = xrefNumber + 1;
  const where = new Map<number, { type: 1; offset: number } | { type: 2; stream: number; index: number }>();
  // A binary comment after the header, as before: transfer programs then treat the file as binary.
  // Object streams are PDF 1.5; a later version (a PDF/A's 1.7) is kept.
  const parts: Buffer[] = [Buffer.from(`%PDF-1.${Math.max(5, Number(header[1]))}\n${header[2] ?? '%\xe2\xe3\xcf\xd3\n'}`, 'latin1')];
  let position = parts[0].length;
  const append = (n: number, bytes: Buffer) => {
    where.set(n, { type: 1, offset: position });
    parts.push(bytes);
    position += bytes.length;
  };
  for (const object of kept) append(object.n, object.bytes.at(-1) === 0x0a ? object.bytes : Buffer.concat([object.bytes, Buffer.from('\n')]));
  for (let s = 0; s < streams; s++) {
    const group = packed.slice(s * OBJECTS_PER_STREAM, (s + 1) * OBJECTS_PER_STREAM);
    const stream = fileSize + s;
    let offsets = '';
    let bodies = '';
    group.forEach((object, index) => {
      offsets += `${object.n} ${bodies.length} `;
      bodies += `${object.body}\n`;
      where.set(object.n, { type: 2, stream, index });
    });
    const data = zlib.deflateSync(Buffer.from(offsets + bodies, 'latin1'), { level: 6 });
    const dictionary = `<</Type /ObjStm /N ${group.length} /First ${offsets.length} /Filter /FlateDecode /Length ${data.length}>>`;
    append(stream, Buffer.concat([Buffer.from(`${stream} 0 obj\n${dictionary}\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')]));
  }

  const xrefAt = position;
  // Seven bytes a row (/W [1 4 2]), written straight into one buffer.
  const rows = Buffer.alloc(size * 7);
  for (let n = 0; n < size; n++) {
    const at = n * 7;
    const entry = n === xrefNumber ? ({ type: 1, offset: xrefAt } as const) : where.get(n);
    if (!entry) {
      if (n === 0) rows.writeUInt16BE(0xffff, at + 5);
    } else if (entry.type === 1) {
      rows[at] = 1;
      rows.writeUInt32BE(entry.offset, at + 1);
    } else {
      rows[at] = 2;
      rows.writeUInt32BE(entry.stream, at + 1);
      rows.writeUInt16BE(entry.index, at + 5);
    }
  }
  const data = zlib.deflateSync(rows);
  const info = table.info ? ` /Info ${table.info}` : '';
  const id = table.id ? ` /ID ${table.id}` : '';
  const dictionary = `<</Type /XRef /Size ${size} /W [1 4 2] /Root ${table.root}${info}${id} /Filter /FlateDecode /Length ${data.length}>>`;
  parts.push(Buffer.from(`${xrefNumber} 0 obj\n${dictionary}\nstream\n`, 'latin1'), data, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
