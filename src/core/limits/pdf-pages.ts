/**
 * The page count of a PDF as Chromium (Skia) writes it, read from the page tree: every
 * `/Type /Pages` node carries `/Count`, the number of pages below it, and the root's is the
 * document's. Skia splits long documents into nodes of 8 kids, so there are many nodes; the
 * largest count is the root's. Taking the largest also means that bytes a page smuggles into
 * the file (a title, a JPEG passed through as is) can only raise the count, never hide pages.
 *
 * Skia writes no object streams and no compressed page tree, so reading the object
 * dictionaries as text is enough; a file without a readable page tree answers undefined and
 * the caller refuses it rather than guess.
 */

const OBJECT = /\b\d+\s+\d+\s+obj\b([\s\S]*?)\bendobj\b/g;
const PAGES_TYPE = /\/Type\s*\/Pages(?![A-Za-z0-9_.#-])/;
const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9_.#-])/;
const COUNT = /\/Count\s+(\d+)/;

/** The dictionary part of an object body: a stream's bytes are not read. */
function dictionaryOf(body: string): string {
  const stream = body.indexOf('stream');
  return stream === -1 ? body : body.slice(0, stream);
}

export function countPdfPages(pdf: Buffer): number | undefined {
  // latin1 maps every byte to one character, so binary streams cannot break the decoding.
  const text = pdf.toString('latin1');
  let fromTree: number | undefined;
  let leaves = 0;
  for (const match of text.matchAll(OBJECT)) {
    const dictionary = dictionaryOf(match[1]);
    if (PAGES_TYPE.test(dictionary)) {
      const count = COUNT.exec(dictionary);
      if (count) fromTree = Math.max(fromTree ?? 0, Number(count[1]));
    } else if (PAGE_TYPE.test(dictionary)) {
      leaves++;
    }
  }
  // A tree without counts is malformed; its leaves are the next best reading.
  if (fromTree !== undefined) return Math.max(fromTree, leaves);
  return leaves > 0 ? leaves : undefined;
}
