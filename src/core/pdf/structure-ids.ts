/**
 * Chromium names each structure element of a tagged PDF after its DOM node's id
 * ("node00000317"), a counter over the page's whole life: a warm page that rendered before gives
 * other ids than a fresh one, so a document's structure (and a deterministic render's bytes)
 * would depend on where it ran (the warm renderer or in-process). The ids are renumbered here in their own order (1, 2, 3...):
 * the same width, so every offset in the file stays right, and the same order, so the ID tree's
 * sorted keys stay sorted. Run on the print as Chromium wrote it, where these strings are plain
 * (before the tags are packed into compressed object streams).
 */
const OPEN = Buffer.from('(node', 'latin1');
const DIGITS = 8;

/** Whether `(node` at `at` opens an id: eight digits, then `)`. */
function isId(pdf: Buffer, at: number): boolean {
  for (let i = at + OPEN.length; i < at + OPEN.length + DIGITS; i++) if (pdf[i] < 0x30 || pdf[i] > 0x39) return false;
  return pdf[at + OPEN.length + DIGITS] === 0x29;
}

/**
 * Found with Buffer.indexOf and written over a copy in place (the width is kept): an untagged
 * print, most of them, costs one native scan, never a latin1 string of the whole file.
 */
export function renumberStructureIds(pdf: Buffer): Buffer {
  const found: Array<{ at: number; id: string }> = [];
  for (let at = pdf.indexOf(OPEN); at >= 0; at = pdf.indexOf(OPEN, at + 1)) {
    if (isId(pdf, at)) found.push({ at, id: pdf.toString('latin1', at + OPEN.length, at + OPEN.length + DIGITS) });
  }
  if (found.length === 0) return pdf;
  const renamed = new Map([...new Set(found.map(({ id }) => id))].sort().map((id, index) => [id, String(index + 1).padStart(DIGITS, '0')]));
  const out = Buffer.from(pdf);
  for (const { at, id } of found) out.write(renamed.get(id)!, at + OPEN.length, 'latin1');
  return out;
}
