/**
 * The bookmarks as the template named them. Chromium writes the outline from its tags (one
 * entry per heading, titled with the heading's text, nested by level) and reads nothing else:
 * not aria-label, not any attribute. So a heading's `data-outline` is applied here, on the
 * printed outline: `data-outline="Totals"` retitles its entry, `data-outline="none"` leaves it
 * out (its sub-entries move up to its parent, in place). The destinations are Chromium's.
 *
 * Chromium's entries and the page's headings (render/page-facts.ts) are both in document
 * order; they are paired by their text, so an entry Chromium left out never shifts the rest.
 */
import type { PDFDict, PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from './pdf-lib.js';
import type { PageHeading } from '../render/page-facts.js';

/** The value of data-outline that leaves a heading out of the bookmarks. */
export const OUTLINE_NONE = 'none';

interface Entry {
  title: string;
  dest: ReturnType<PDFDict['get']>;
  kids: Entry[];
}

/** Chromium's titles drop the space where a heading's line wrapped ("region byregion"): compared without any. */
const normal = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/** The entries from `first` on; `old` collects their objects, replaced by the rewrite. */
function readEntries(lib: PdfLib, doc: PDFDocument, first: unknown, old: Set<PDFRef>): Entry[] {
  const { PDFName, PDFDict: Dict, PDFRef: Ref } = lib;
  const entries: Entry[] = [];
  for (let ref = first; ref instanceof Ref && !old.has(ref); ) {
    old.add(ref);
    const item = doc.context.lookupMaybe(ref, Dict);
    if (!item) break;
    const title = item.lookup(PDFName.of('Title'));
    const text = title instanceof lib.PDFString || title instanceof lib.PDFHexString ? title.decodeText() : '';
    entries.push({ title: text, dest: item.get(PDFName.of('Dest')) ?? item.get(PDFName.of('A')), kids: readEntries(lib, doc, item.get(PDFName.of('First')), old) });
    ref = item.get(PDFName.of('Next'));
  }
  return entries;
}

/** Each entry renamed or dropped by the heading paired with it, in document order (also outline-in-place.ts's). */
export function applyNames<E extends { title: string; kids: E[] }>(entries: E[], headings: PageHeading[], cursor: { at: number } = { at: 0 }): E[] {
  const kept: E[] = [];
  for (const entry of entries) {
    const kids = (heading: PageHeading | undefined) => {
      const children = applyNames(entry.kids, headings, cursor);
      return heading?.outline === OUTLINE_NONE ? children : [{ ...entry, title: heading?.outline || entry.title, kids: children }];
    };
    const wanted = normal(entry.title);
    const found = headings.findIndex((heading, i) => i >= cursor.at && normal(heading.text) === wanted);
    const heading = found >= 0 ? headings[found] : undefined;
    if (found >= 0) cursor.at = found + 1;
    kept.push(...kids(heading));
  }
  return kept;
}

/** Writes `entries` as the document's outline (all open, as Chromium writes them); none removes it. */
function writeEntries(lib: PdfLib, doc: PDFDocument, entries: Entry[]): void {
  const { PDFName, PDFHexString, PDFNumber } = lib;
  const context = doc.context;
  if (entries.length === 0) {
    doc.catalog.delete(PDFName.of('Outlines'));
    return;
  }
  const write = (list: Entry[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = list.map(() => context.nextRef());
    let count = list.length;
    list.forEach((entry, i) => {
      const item = context.obj({}) as PDFDict;
      item.set(PDFName.of('Title'), PDFHexString.fromText(entry.title));
      item.set(PDFName.of('Parent'), parent);
      if (entry.dest) item.set(PDFName.of(entry.dest instanceof lib.PDFDict ? 'A' : 'Dest'), entry.dest);
      if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]);
      if (i < list.length - 1) item.set(PDFName.of('Next'), refs[i + 1]);
      if (entry.kids.length > 0) {
        const kids = write(entry.kids, refs[i]);
        item.set(PDFName.of('First'), kids.first);
        item.set(PDFName.of('Last'), kids.last);
        item.set(PDFName.of('Count'), PDFNumber.of(kids.count));
        count += kids.count;
      }
      context.assign(refs[i], item);
    });
    return { first: refs[0], last: refs[refs.length - 1], count };
  };
  const root = context.nextRef();
  const top = write(entries, root);
  context.assign(root, context.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: top.count }));
  doc.catalog.set(PDFName.of('Outlines'), root);
}

/** Applies the page's data-outline names to the printed outline (a document without one is left alone). */
export function nameOutline(lib: PdfLib, doc: PDFDocument, headings: PageHeading[]): void {
  const rootRef = doc.catalog.get(lib.PDFName.of('Outlines'));
  const root = doc.catalog.lookupMaybe(lib.PDFName.of('Outlines'), lib.PDFDict);
  if (!root) return;
  const old = new Set<PDFRef>();
  const entries = readEntries(lib, doc, root.get(lib.PDFName.of('First')), old);
  writeEntries(lib, doc, applyNames(entries, headings, { at: 0 }));
  // The replaced entries would stay in the file, unreachable: a reader that scans objects could list them.
  if (rootRef instanceof lib.PDFRef) old.add(rootRef);
  for (const ref of old) doc.context.delete(ref);
}
