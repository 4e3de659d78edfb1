/**
 * Chromium names each structure element of a tagged PDF after its DOM node's id
 * ("node00000317"), a counter over the page's whole life: a warm page that rendered before gives
 * other ids than a fresh one, so a document's structure (and a deterministic render's bytes)
 * would depend on where it ran (the warm renderer or in-process). The ids are renumbered here in their own order (1, 2, 3...):
 * the same width, so every offset in the file stays right, and the same order, so the ID tree's
 * sorted keys stay sorted. Run on the print as Chromium wrote it, where these strings are plain
 * (before the tags are packed into compressed object streams).
 *
 * The pieces are exported for the spooled finish (spooled/structure-id-scan.ts and
 * spooled/renumbered-reader.ts), which renumbers a file chunk by chunk: an id is 14 bytes and
 * two never overlap (only its first byte is a parenthesis), so each is found whole in some chunk
 * that keeps the previous one's last 13 bytes, and rewritten wherever it is read.
 */
import { ImprintError } from '../errors.js';

const OPEN = Buffer.from('(node', 'latin1');
const DIGITS = 8;

/** An id's length in bytes: `(node`, eight digits, `)`. */
export const ID_BYTES = OPEN.length + DIGITS + 1;

/** Whether `(node` at `at` opens an id: eight digits, then `)` (past the end of `bytes`: not one). */
function isId(bytes: Buffer, at: number): boolean {
  for (let i = at + OPEN.length; i < at + OPEN.length + DIGITS; i++) if (bytes[i] < 0x30 || bytes[i] > 0x39) return false;
  return bytes[at + OPEN.length + DIGITS] === 0x29;
}

/** Where each id in `bytes` starts: found with Buffer.indexOf, one native scan, never a latin1 string of the whole. */
export function idsIn(bytes: Buffer): number[] {
  const found: number[] = [];
  for (let at = bytes.indexOf(OPEN); at >= 0; at = bytes.indexOf(OPEN, at + 1)) if (isId(bytes, at)) found.push(at);
  return found;
}

/** The id at `at` as a number (its eight digits): ids of one width sort alike as numbers and as text. */
export function idAt(bytes: Buffer, at: number): number {
  let id = 0;
  for (let i = at + OPEN.length; i < at + OPEN.length + DIGITS; i++) id = id * 10 + bytes[i] - 0x30;
  return id;
}

/** The distinct ids, sorted: an id's new number is its place here plus one (4 bytes an id, however many the file holds). */
export const renumbering = (ids: Iterable<number>): Uint32Array => Uint32Array.from(new Set(ids)).sort();

/** The ids at `found` in `bytes` written over with their new numbers, in place (ids never overlap, so each is read before it is written). */
export function writeRenumbered(bytes: Buffer, found: number[], sorted: Uint32Array): void {
  for (const at of found) {
    const id = idAt(bytes, at);
    let low = 0;
    for (let high = sorted.length - 1; low < high; ) {
      const middle = (low + high) >>> 1;
      if (sorted[middle] < id) low = middle + 1;
      else high = middle;
    }
    // Only the spooled path can meet one: its file changed between the pass that counted the ids and this one.
    if (sorted[low] !== id) throw new ImprintError('RENDER_FAILED', `Structure id node${String(id).padStart(DIGITS, '0')} was not among the ids counted before: the PDF changed while it was being finished. Render the document again.`);
    bytes.write(String(low + 1).padStart(DIGITS, '0'), at + OPEN.length, 'latin1');
  }
}

/** Written over a copy (the width is kept): an untagged print, most of them, costs one native scan. */
export function renumberStructureIds(pdf: Buffer): Buffer {
  const found = idsIn(pdf);
  if (found.length === 0) return pdf;
  const out = Buffer.from(pdf);
  writeRenumbered(out, found, renumbering(found.map((at) => idAt(pdf, at))));
  return out;
}
