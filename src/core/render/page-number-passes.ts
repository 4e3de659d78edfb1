/**
 * Page numbers Chromium cannot print (a table of contents, "see page N", a section's page
 * count; runtime/page-protocol.ts): the document is printed, the pages its targets landed on
 * are read from the PDF's named destinations, and it is rendered and printed again with those
 * numbers in, until the numbers printed are the pages the targets landed on. Putting numbers
 * in can move what they number (more digits wrap a line, a longer table of contents pushes
 * the chapters on), so each print is read again: at most MAX_PASSES prints, then the render
 * fails naming the targets that kept moving.
 *
 * Why the PDF and not the page: print layout (page breaks, margins, the paper's width) exists
 * only inside Chromium's print; the page's script sees the screen layout, and Chromium's
 * document outline lists only headings, and needs the costly tagged PDF.
 */
import { ImprintError } from '../errors.js';
import { readDestinationPages } from '../pdf/named-destinations.js';
import type { PageNumbers, PageRefs } from '../../runtime/page-protocol.js';
import type { PrintedPage } from './print-pdf.js';
import { disposePdf, readPdfBytes } from '../spool/spooled-pdf.js';

/** The first print finds the pages; the second prints them; a third when the second moved something. */
export const MAX_PASSES = 3;

/** One render and print of the document. `refs`: the targets its document asks pages for, if any. */
export interface PrintedPass extends PrintedPage {
  refs?: PageRefs;
  /**
   * The `<Field>`s this render reported: each pass mounts the document again, so its fields'
   * links (React ids) are its own, and only the final print's find their boxes in its PDF.
   */
  fields?: unknown[];
}

/** Where this print's targets landed, as the numbers the next render shows. */
async function landed(pass: PrintedPass & { refs: PageRefs }, sourceName: string): Promise<PageNumbers> {
  const { pages, destinations } = await readDestinationPages(await readPdfBytes(pass.pdf));
  const targets: Record<string, number> = {};
  const missing: string[] = [];
  for (const id of pass.refs.ids) {
    const page = destinations.get(pass.refs.destinations[id] ?? id);
    if (page === undefined) missing.push(id);
    else targets[id] = page;
  }
  if (missing.length > 0) {
    throw new ImprintError(
      'RENDER_FAILED',
      `The template ${sourceName} asks for the page of ${missing.map((id) => `#${id}`).join(', ')}, which is not printed: no element has this id, or it is not displayed. ` +
        'Give the element the id the <PageRef to> (or link) names.',
    );
  }
  return { pages, targets, sections: pass.refs.sections };
}

function sameNumbers(a: PageNumbers, b: PageNumbers): boolean {
  if (a.pages !== b.pages) return false;
  const ids = Object.keys(a.targets);
  return ids.length === Object.keys(b.targets).length && ids.every((id) => a.targets[id] === b.targets[id]);
}

/** The targets whose page moved between the last two prints, each with its pages print by print. */
function unsettled(history: PageNumbers[], refs: PageRefs, sourceName: string): ImprintError {
  const [before, last] = history.slice(-2);
  const moving = refs.ids
    .filter((id) => before.targets[id] !== last.targets[id])
    .map((id) => `${refs.labels[id] ? `"${refs.labels[id]}" ` : ''}(#${id}): page ${history.map((numbers) => numbers.targets[id] ?? '?').join(', then ')}`);
  if (before.pages !== last.pages) moving.push(`the page count: ${history.map((numbers) => numbers.pages).join(', then ')}`);
  const shown = moving.slice(0, 10);
  return new ImprintError(
    'PAGE_NUMBERS_UNSETTLED',
    `The page numbers of ${sourceName} did not settle in ${MAX_PASSES} prints: printing them moves what they number. ` +
      `Moving: ${shown.join('; ')}${moving.length > shown.length ? `; and ${moving.length - shown.length} more` : ''}. ` +
      'Something that depends on a page number changes where the pages break (a number that wraps its line, content shown only for some pages): give the numbers a fixed width, or keep such content from moving the breaks.',
    // Every one, when the message had to leave some out.
    moving.length > shown.length ? { details: moving.join('\n') } : {},
  );
}

/**
 * The final print of a document whose first print asked for page numbers. `again` renders
 * the same props with the numbers given and prints.
 */
export async function settlePageNumbers(
  first: PrintedPass & { refs: PageRefs },
  again: (numbers: PageNumbers) => Promise<PrintedPass>,
  sourceName: string,
): Promise<PrintedPass> {
  let refs = first.refs;
  // The print in hand: a spooled one (spool/spooled-pdf.ts) is removed once another replaces it, or the render fails.
  let current: PrintedPass = first;
  try {
    let numbers = await landed(first, sourceName);
    const history = [numbers];
    for (let pass = 2; pass <= MAX_PASSES; pass++) {
      const printed = await again(numbers);
      await disposePdf(current.pdf);
      current = printed;
      // A document that no longer asks for numbers (they made it drop its references) is done.
      if (!printed.refs) return printed;
      refs = printed.refs;
      const next = await landed({ ...printed, refs }, sourceName);
      if (sameNumbers(next, numbers)) return printed;
      history.push(next);
      numbers = next;
    }
    throw unsettled(history, refs, sourceName);
  } catch (error) {
    await disposePdf(current.pdf);
    throw error;
  }
}
