/**
 * The tagged print's finish from file to file: what packObjectStreamsWith (object-streams.ts)
 * writes for rewriteInfoPacked (info-rewrite.ts), in two passes over the objects so that neither
 * holds the structure tree. The first copies the objects that stay plain (streams a chunk at a
 * time, the page tree, the catalog and the Info written anew) and notes the others; the second
 * reads those again, 200 at a time, and writes each group as one object stream; then the
 * cross-reference stream. The header, the grouping, the object streams and the rows are the
 * in-memory packer's own functions, so both write the same bytes.
 */
import { isPageObject } from '../../limits/pdf-pages.js';
import { objectEnd, rewrittenObject, unexpected } from '../classic-pdf.js';
import { OBJECTS_PER_STREAM, objectBody, packedHeader, PackedPlaces, packedTrailerOf, staysPlain } from '../object-streams.js';
import type { BufferedWriter } from './buffered-writer.js';
import { readObject, type OpenedPdf } from './opened-pdf.js';

/** Writes the packed file into `writer`; answers its page count. Throws Shape where packObjectStreamsWith answers undefined. */
export async function writePackedFile(pdf: OpenedPdf, replaced: Map<number, string>, writer: BufferedWriter): Promise<number> {
  const { reader, table, head } = pdf;
  // The header is the file's first two lines: settled by the head read when it holds both (or is the whole file).
  if (head.length < reader.size && head.split('\n', 3).length < 3) unexpected('a header line longer than the head read');
  const header = packedHeader(head) ?? unexpected('a header other than %PDF-1.x');
  const trailer = packedTrailerOf(table);
  const { order, xref, size: fileSize } = table;
  const places = new PackedPlaces(fileSize + Math.ceil(order.length / OBJECTS_PER_STREAM) + 1);
  // The objects to pack, by their place in `order`: a number each, not their text.
  const packed = new Uint32Array(order.length);
  let packedCount = 0;
  let pages = 0;

  /** Object `n`'s body in its text, checked to open and close as the in-memory packer checks it. */
  const bodyIn = (text: string, n: number) => objectBody(text, n, 0, text.length) ?? unexpected(`object ${n} not opened and closed where the table says`);

  await writer.writeText(header);
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    const offset = xref.offset[n];
    const end = objectEnd(table, k);
    const rewritten = replaced.get(n);
    let text: string | undefined;
    if (rewritten === undefined) {
      const object = (await readObject(reader, offset, end)) ?? unexpected(`object ${n} without endobj`);
      if (object.kind === 'stream') {
        const opening = `${n} 0 obj`;
        if ((await reader.text(offset, Math.min(end, offset + opening.length))) !== opening) unexpected(`object ${n} not at its offset`);
        places.inFile(n, writer.position);
        await writer.copy(reader.chunks(offset, end));
        await writer.endLine();
        continue;
      }
      text = object.text;
    }
    const body = text === undefined ? rewritten!.trim() : bodyIn(text, n);
    if (text !== undefined && isPageObject(body)) pages++;
    if (!staysPlain(n, body, trailer)) {
      packed[packedCount++] = k;
      continue;
    }
    places.inFile(n, writer.position);
    if (text === undefined) await writer.write(rewrittenObject(n, rewritten!));
    else await writer.writeText(text);
    await writer.endLine();
  }

  // Numbers after the file's own: the object streams, then the cross-reference stream.
  const streams = Math.ceil(packedCount / OBJECTS_PER_STREAM);
  for (let s = 0; s < streams; s++) {
    const group: { n: number; body: string }[] = [];
    for (let i = s * OBJECTS_PER_STREAM; i < Math.min(packedCount, (s + 1) * OBJECTS_PER_STREAM); i++) {
      const k = packed[i];
      const n = order[k];
      const rewritten = replaced.get(n);
      group.push({ n, body: rewritten === undefined ? bodyIn(await reader.text(xref.offset[n], objectEnd(table, k)), n) : rewritten.trim() });
    }
    const stream = fileSize + s;
    places.inFile(stream, writer.position);
    await writer.copy(places.objectStream(stream, group));
  }
  await writer.copy(places.xrefStream(fileSize + streams, writer.position, trailer));
  return pages;
}
