/**
 * The page count of a finished PDF, as a reader sees it: the page tree of the file's last
 * revision (pdf/last-revision.ts), from the catalog's /Pages down to its leaves. A signed file
 * holds the signed page's dictionary twice (the signature's incremental update writes a new
 * version of it under its old number), and so can any file updated after it was written; only
 * the newest version is the document's, so only it is counted. Objects are read where the
 * cross-reference sections put them, so bytes a page smuggles into the file (a title, a JPEG
 * passed through as it is) are never taken for a page tree node. The root's /Count and the
 * leaves found agree in a well-formed file; when they do not, the larger is the answer, so a
 * wrong /Count cannot hide pages from the limit.
 *
 * A file whose cross-reference sections cannot be followed (none written, a damaged table, a
 * page tree inside an object stream) is read as readers repair one, by its object dictionaries
 * in the text: the largest /Count of any /Pages node (smuggled bytes can only raise it) or,
 * without counts, the /Page leaves, each object number once. A file without any answers
 * undefined and the caller refuses it rather than guess.
 */
import { entryValue, refNumber, Shape } from '../pdf/classic-pdf.js';
import { readLastRevision } from '../pdf/last-revision.js';

const OBJECT = /\b(\d+)\s+\d+\s+obj\b([\s\S]*?)\bendobj\b/g;
const PAGES_TYPE = /\/Type\s*\/Pages(?![A-Za-z0-9_.#-])/;
const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9_.#-])/;
const COUNT = /\/Count\s+(\d+)/;
const KID = /(\d+)\s+0\s+R/g;

/** The page tree of the last revision: the larger of the root's /Count and its leaves. */
function pageTreeCount(text: string): number {
  const revision = readLastRevision(text);
  const rootNode = refNumber(entryValue(revision.dictionary(revision.root), 'Pages'));
  const rootCount = Number(/^\d+$/.exec(entryValue(revision.dictionary(rootNode), 'Count') ?? '')?.[0] ?? 0);
  let leaves = 0;
  const seen = new Set<number>();
  const pending = [rootNode];
  while (pending.length) {
    const n = pending.pop()!;
    // A node met twice is a cycle or a shared subtree: no reader agrees on those.
    if (seen.has(n)) throw new Shape(`page tree node ${n} reached twice`);
    seen.add(n);
    const node = revision.dictionary(n);
    if (entryValue(node, 'Type') !== '/Pages') {
      leaves++;
      continue;
    }
    const kids = entryValue(node, 'Kids') ?? '';
    if (!kids.startsWith('[')) throw new Shape(`page tree node ${n} without an inline /Kids`);
    for (const kid of kids.matchAll(KID)) pending.push(Number(kid[1]));
  }
  return Math.max(rootCount, leaves);
}

/** The dictionary part of an object body: a stream's bytes are not read. */
function dictionaryOf(body: string): string {
  const stream = body.indexOf('stream');
  return stream === -1 ? body : body.slice(0, stream);
}

/** Whether an object's body (a stream's dictionary only) is a page, a leaf of the page tree: the spooled finish (pdf/spooled) counts pages so as it copies them. */
export const isPageObject = (body: string): boolean => PAGE_TYPE.test(dictionaryOf(body));

/** The repair reading (above) of a file whose cross-reference sections cannot be followed. */
function scannedCount(text: string): number | undefined {
  let fromTree: number | undefined;
  const leaves = new Set<string>();
  for (const match of text.matchAll(OBJECT)) {
    const dictionary = dictionaryOf(match[2]!);
    if (PAGES_TYPE.test(dictionary)) {
      const count = COUNT.exec(dictionary);
      if (count) fromTree = Math.max(fromTree ?? 0, Number(count[1]));
    } else if (isPageObject(match[2]!)) {
      leaves.add(match[1]!);
    }
  }
  // A tree without counts is malformed; its leaves are the next best reading.
  if (fromTree !== undefined) return Math.max(fromTree, leaves.size);
  return leaves.size > 0 ? leaves.size : undefined;
}

export function countPdfPages(pdf: Buffer): number | undefined {
  // latin1 maps every byte to one character, so binary streams cannot break the decoding.
  const text = pdf.toString('latin1');
  try {
    return pageTreeCount(text);
  } catch (error) {
    if (!(error instanceof Shape)) throw error;
    return scannedCount(text);
  }
}
