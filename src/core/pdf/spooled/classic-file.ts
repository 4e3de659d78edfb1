/**
 * The untagged print's finish from file to file: what writeClassicPdf (classic-pdf.ts) writes
 * for rewriteInfo (info-rewrite.ts), the bytes before the first object and every object copied
 * as they are, the Info and catalog written anew in their place, a new table with the shifted
 * offsets (classicTableEnd, shared). Streams are copied a chunk at a time; a plain object is read
 * whole, and counted when it is a page.
 */
import { isPageObject } from '../../limits/pdf-pages.js';
import { classicTableEnd, objectEnd, rewrittenObject } from '../classic-pdf.js';
import type { BufferedWriter } from './buffered-writer.js';
import { readObject, type OpenedPdf } from './opened-pdf.js';

/** Writes the finished file into `writer`; answers its page count. */
export async function writeClassicFile({ reader, table }: OpenedPdf, replaced: Map<number, string>, writer: BufferedWriter): Promise<number> {
  const { order, xref } = table;
  const offsets = new Float64Array(table.size);
  let pages = 0;
  await writer.copy(reader.chunks(0, xref.offset[order[0]]));
  for (let k = 0; k < order.length; k++) {
    const n = order[k];
    const offset = xref.offset[n];
    const end = objectEnd(table, k);
    offsets[n] = writer.position;
    const rewritten = replaced.get(n);
    if (rewritten !== undefined) {
      await writer.write(rewrittenObject(n, rewritten));
      continue;
    }
    const object = await readObject(reader, offset, end);
    if (object?.kind === 'plain') {
      if (isPageObject(object.text)) pages++;
      await writer.writeText(object.text);
    }
    // A stream, or an object without `endobj`, which writeClassicPdf copies as it is too.
    else await writer.copy(reader.chunks(offset, end));
  }
  await writer.copy(classicTableEnd(table, offsets, table.size, writer.position));
  return pages;
}
