/**
 * An incremental update appended to a finished PDF: the objects given (new ones, and new
 * versions of existing ones under their old numbers) after the file's last byte, then a
 * cross-reference section pointing at them and back at the previous one (/Prev). Every byte of
 * the input stays where it was, so the unsigned document is a prefix of the signed one and a
 * PDF/A or an encrypted file keeps everything it had. The section takes the form of the file's
 * own: a classic table after a table, a cross-reference stream after a stream (Chromium writes
 * tables; pdf-lib's PDF/A and encryption saves write streams).
 */
import type { PDFDict, PDFObject, PDFRef } from '@cantoo/pdf-lib';

export interface UpdateObject {
  ref: PDFRef;
  /** The object's source text (a dictionary, an array...). */
  body: string;
}

export interface PreviousTrailer {
  /** Where the previous cross-reference section starts (the file's last startxref). */
  startXref: number;
  /** Whether that section is a cross-reference stream. */
  xrefStream: boolean;
  /** The trailer entries carried over (Root, Info, ID, Encrypt). */
  entries: Partial<Record<'Root' | 'Info' | 'ID' | 'Encrypt', PDFObject>>;
  /** One past the largest object number in use. */
  size: number;
}

/** The last startxref of a file and the form of the section it points at. */
export function lastStartXref(pdf: Buffer): { startXref: number; xrefStream: boolean } {
  const at = pdf.lastIndexOf('startxref', undefined, 'latin1');
  const match = at < 0 ? null : /^startxref\s+(\d+)/.exec(pdf.subarray(at, at + 40).toString('latin1'));
  if (!match) throw new Error('no startxref');
  const startXref = Number(match[1]);
  return { startXref, xrefStream: !pdf.subarray(startXref, startXref + 4).toString('latin1').startsWith('xref') };
}

function trailerEntries(previous: PreviousTrailer, size: number): string {
  const carried = Object.entries(previous.entries)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `/${key} ${value!.toString()}`);
  return [`/Size ${size}`, ...carried, `/Prev ${previous.startXref}`].join(' ');
}

/** Consecutive runs of object numbers, as a section's subsections want them. */
function runs(numbers: number[]): Array<{ first: number; count: number }> {
  const result: Array<{ first: number; count: number }> = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const last = result[result.length - 1];
    if (last && last.first + last.count === n) last.count++;
    else result.push({ first: n, count: 1 });
  }
  return result;
}

/** The update's bytes, to append to the file as it is (which must end where `pdf` ends). */
export function incrementalUpdate(pdf: Buffer, previous: PreviousTrailer, objects: UpdateObject[]): Buffer {
  const parts: string[] = [];
  // The update starts on a new line, whatever the file's last byte was.
  let offset = pdf.length;
  const push = (text: string) => {
    parts.push(text);
    offset += Buffer.byteLength(text, 'latin1');
  };
  if (pdf[pdf.length - 1] !== 0x0a) push('\n');
  const offsets = new Map<number, number>();
  for (const { ref, body } of objects) {
    offsets.set(ref.objectNumber, offset);
    push(`${ref.objectNumber} ${ref.generationNumber} obj\n${body}\nendobj\n`);
  }
  const generation = new Map(objects.map(({ ref }) => [ref.objectNumber, ref.generationNumber]));
  const xrefAt = offset;
  if (!previous.xrefStream) {
    const sections = runs([...offsets.keys()]).map(({ first, count }) => {
      const lines = Array.from({ length: count }, (_, i) => `${String(offsets.get(first + i)).padStart(10, '0')} ${String(generation.get(first + i)).padStart(5, '0')} n\r\n`);
      return `${first} ${count}\n${lines.join('')}`;
    });
    push(`xref\n${sections.join('')}trailer\n<< ${trailerEntries(previous, previous.size)} >>\nstartxref\n${xrefAt}\n%%EOF\n`);
    return Buffer.from(parts.join(''), 'latin1');
  }
  // A cross-reference stream of its own (not encrypted, ISO 32000-1 7.5.8.2), one more object.
  const streamNumber = previous.size;
  offsets.set(streamNumber, xrefAt);
  generation.set(streamNumber, 0);
  const sections = runs([...offsets.keys()]);
  const rows = sections.flatMap(({ first, count }) =>
    Array.from({ length: count }, (_, i) => {
      const row = Buffer.alloc(7);
      row[0] = 1;
      row.writeUInt32BE(offsets.get(first + i)!, 1);
      row.writeUInt16BE(generation.get(first + i)!, 5);
      return row;
    }),
  );
  const data = Buffer.concat(rows);
  const index = sections.map(({ first, count }) => `${first} ${count}`).join(' ');
  const head = `${streamNumber} 0 obj\n<< /Type /XRef ${trailerEntries(previous, streamNumber + 1)} /W [1 4 2] /Index [${index}] /Length ${data.length} >>\nstream\n`;
  return Buffer.concat([Buffer.from(parts.join('') + head, 'latin1'), data, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1')]);
}

/** A dictionary's source with some entries set (replacing any of the same key). */
export function withEntries(dict: PDFDict, entries: Record<string, string>): string {
  const kept = dict
    .entries()
    .filter(([key]) => !(key.decodeText() in entries))
    .map(([key, value]) => `${key.toString()} ${value.toString()}`);
  return `<<\n${[...kept, ...Object.entries(entries).map(([key, value]) => `/${key} ${value}`)].join('\n')}\n>>`;
}
