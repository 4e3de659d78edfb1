/**
 * The document outline (bookmarks) of a merged PDF, which pdf-lib has no API for: each part's
 * outline read as titles and page indexes (destinations.ts), and the merged one written as the
 * dictionaries PDF 32000 12.3.3 describes: one entry per part, opening its first page, with
 * the part's own outline nested under it. Every item is written open, so a viewer shows each
 * part's bookmarks without a click; Count is then the number of visible descendants.
 */
import type { PDFDocument, PDFRef, PDFDict } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import { itemTarget, pageIndexes, textOf, type PageTarget } from './destinations.js';

type Doc = PDFDocument;
type Ref = PDFRef;

export interface OutlineNode {
  title: string;
  /** Absent for an item whose destination is not a page of its document (an URI action, a dangling name). */
  target?: PageTarget;
  children: OutlineNode[];
}

/** An item of the merged outline: its page already a page of the merged document. */
export interface WrittenNode {
  title: string;
  page?: Ref;
  view: PageTarget['view'];
  children: WrittenNode[];
}

/** More items than any real outline has: a file whose /Next chain loops ends here. */
const MAX_ITEMS = 100_000;

/**
 * The outline of `doc` as nodes, and the references of its item dictionaries (which the caller
 * deletes when it replaces the outline, so no orphan is written).
 */
export function readOutline(lib: PdfLib, doc: Doc): { nodes: OutlineNode[]; refs: Ref[] } {
  const { PDFDict, PDFName, PDFRef } = lib;
  const pages = pageIndexes(doc);
  const refs: Ref[] = [];
  const seen = new Set<string>();
  const children = (parent: PDFDict, depth: number): OutlineNode[] => {
    const nodes: OutlineNode[] = [];
    let next = parent.get(PDFName.of('First'));
    while (next instanceof PDFRef && !seen.has(next.toString()) && seen.size < MAX_ITEMS && depth < 64) {
      seen.add(next.toString());
      refs.push(next);
      const item = doc.context.lookup(next);
      if (!(item instanceof PDFDict)) break;
      nodes.push({ title: textOf(lib, doc.context.lookup(item.get(PDFName.of('Title')))) ?? '', target: itemTarget(lib, doc, pages, item), children: children(item, depth + 1) });
      next = item.get(PDFName.of('Next'));
    }
    return nodes;
  };
  const outlines = doc.context.lookup(doc.catalog.get(PDFName.of('Outlines')));
  if (!(outlines instanceof PDFDict)) return { nodes: [], refs };
  const root = doc.catalog.get(PDFName.of('Outlines'));
  if (root instanceof PDFRef) refs.push(root);
  return { nodes: children(outlines, 0), refs };
}

/** Items shown when every item is open: each child and everything under it. */
const visible = (nodes: WrittenNode[]): number => nodes.reduce((sum, node) => sum + 1 + visible(node.children), 0);

/** Writes `nodes` as the document's outline (replacing the catalog's /Outlines) and asks viewers to show it. */
export function writeOutline(lib: PdfLib, doc: Doc, nodes: WrittenNode[]): void {
  const { PDFName, PDFNumber, PDFHexString } = lib;
  const context = doc.context;
  const rootRef = context.nextRef();

  const writeLevel = (parentRef: Ref, level: WrittenNode[]): Ref[] => {
    const refs = level.map(() => context.nextRef());
    level.forEach((node, index) => {
      const item = context.obj({});
      item.set(PDFName.of('Title'), PDFHexString.fromText(node.title));
      item.set(PDFName.of('Parent'), parentRef);
      if (index > 0) item.set(PDFName.of('Prev'), refs[index - 1]);
      if (index < refs.length - 1) item.set(PDFName.of('Next'), refs[index + 1]);
      if (node.page) item.set(PDFName.of('Dest'), context.obj([node.page, ...node.view]));
      const kids = writeLevel(refs[index], node.children);
      if (kids.length > 0) {
        item.set(PDFName.of('First'), kids[0]);
        item.set(PDFName.of('Last'), kids[kids.length - 1]);
        item.set(PDFName.of('Count'), PDFNumber.of(visible(node.children)));
      }
      context.assign(refs[index], item);
    });
    return refs;
  };

  const top = writeLevel(rootRef, nodes);
  const root = context.obj({ Type: 'Outlines' });
  if (top.length > 0) {
    root.set(PDFName.of('First'), top[0]);
    root.set(PDFName.of('Last'), top[top.length - 1]);
    root.set(PDFName.of('Count'), PDFNumber.of(visible(nodes)));
  }
  context.assign(rootRef, root);
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}
