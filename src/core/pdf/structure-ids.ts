/**
 * Chromium names each structure element of a tagged PDF after its DOM node's id
 * ("node00000317"), a counter over the page's whole life: a warm page that rendered before gives
 * other ids than a fresh one, so a document's structure (and a deterministic render's bytes)
 * would depend on where it ran (the warm renderer or in-process). The ids are renumbered here in their own order (1, 2, 3...):
 * the same width, so every offset in the file stays right, and the same order, so the ID tree's
 * sorted keys stay sorted. Run on the print as Chromium wrote it, where these strings are plain
 * (before the tags are packed into compressed object streams).
 */
const NODE_ID = /\(node(\d{8})\)/g;

export function renumberStructureIds(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const ids = new Set<string>();
  for (const match of text.matchAll(NODE_ID)) ids.add(match[1]);
  if (ids.size === 0) return pdf;
  const renamed = new Map([...ids].sort().map((id, index) => [id, String(index + 1).padStart(8, '0')]));
  return Buffer.from(text.replace(NODE_ID, (_, id: string) => `(node${renamed.get(id)})`), 'latin1');
}
