/**
 * A destination inside one PDF (an outline item's, a link's) as a page index and the view
 * after it (`/XYZ left top zoom`, `/Fit`...), whatever form the file wrote it in: an explicit
 * array, a name in the catalog's /Dests, a string in the /Names tree, a GoTo action. A page
 * index survives the copy into another document; a page reference or a name does not (the
 * copy has other references, and the part's name tree is not carried over).
 */
import type { PDFDocument, PDFDict, PDFObject } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';

type Doc = PDFDocument;
type PdfObject = PDFObject | undefined;

export interface PageTarget {
  pageIndex: number;
  /** The array's elements after the page: direct names, numbers and nulls, valid in any document. */
  view: PDFObject[];
}

/** Page references of `doc` by "objectNumber generation", to their index. */
export function pageIndexes(doc: Doc): Map<string, number> {
  return new Map(doc.getPages().map((page, index) => [page.ref.toString(), index]));
}

/** The text of a PDF string, whichever kind the file used. */
export function textOf(lib: PdfLib, value: PdfObject): string | undefined {
  if (value instanceof lib.PDFString || value instanceof lib.PDFHexString) return value.decodeText();
  return undefined;
}

/** Looks `key` up in a name tree (PDF 32000 7.9.6); depth-bounded against a tree that loops. */
function nameTreeLookup(lib: PdfLib, doc: Doc, node: PdfObject, key: string, depth = 0): PdfObject {
  if (!(node instanceof lib.PDFDict) || depth > 32) return undefined;
  const names = doc.context.lookup(node.get(lib.PDFName.of('Names')));
  if (names instanceof lib.PDFArray) {
    for (let index = 0; index + 1 < names.size(); index += 2) {
      if (textOf(lib, doc.context.lookup(names.get(index))) === key) return doc.context.lookup(names.get(index + 1));
    }
  }
  const kids = doc.context.lookup(node.get(lib.PDFName.of('Kids')));
  if (kids instanceof lib.PDFArray) {
    for (let index = 0; index < kids.size(); index++) {
      const found = nameTreeLookup(lib, doc, doc.context.lookup(kids.get(index)), key, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A named destination's explicit form (a name in /Dests, or a string in the /Names tree). */
function namedDestination(lib: PdfLib, doc: Doc, value: PdfObject): PdfObject {
  const catalog = doc.catalog;
  if (value instanceof lib.PDFName) {
    const dests = doc.context.lookup(catalog.get(lib.PDFName.of('Dests')));
    return dests instanceof lib.PDFDict ? doc.context.lookup(dests.get(value)) : undefined;
  }
  const key = textOf(lib, value);
  if (key === undefined) return undefined;
  const names = doc.context.lookup(catalog.get(lib.PDFName.of('Names')));
  return names instanceof lib.PDFDict ? nameTreeLookup(lib, doc, doc.context.lookup(names.get(lib.PDFName.of('Dests'))), key) : undefined;
}

/** A destination value (`/Dest`'s, a GoTo's `/D`) as a page index and view; undefined when it names no page of `doc`. */
export function pageTarget(lib: PdfLib, doc: Doc, pages: Map<string, number>, given: PdfObject, depth = 0): PageTarget | undefined {
  const value = doc.context.lookup(given);
  if (value instanceof lib.PDFArray) {
    const page = value.get(0);
    const pageIndex = page instanceof lib.PDFRef ? pages.get(page.toString()) : undefined;
    if (pageIndex === undefined) return undefined;
    const view: PDFObject[] = [];
    for (let index = 1; index < value.size(); index++) {
      const element = value.get(index);
      if (element instanceof lib.PDFName || element instanceof lib.PDFNumber || element === lib.PDFNull) view.push(element);
    }
    return { pageIndex, view };
  }
  // A destination dictionary holds its array in /D; a name leads to one of the forms above.
  if (value instanceof lib.PDFDict && depth < 4) return pageTarget(lib, doc, pages, value.get(lib.PDFName.of('D')), depth + 1);
  if (depth < 4) {
    const named = namedDestination(lib, doc, value);
    if (named !== undefined) return pageTarget(lib, doc, pages, named, depth + 1);
  }
  return undefined;
}

/** Where an item or a link goes: its /Dest, else its GoTo action's /D. */
export function itemTarget(lib: PdfLib, doc: Doc, pages: Map<string, number>, item: PDFDict): PageTarget | undefined {
  const dest = item.get(lib.PDFName.of('Dest'));
  if (dest !== undefined) return pageTarget(lib, doc, pages, dest);
  const action = doc.context.lookup(item.get(lib.PDFName.of('A')));
  if (action instanceof lib.PDFDict && action.get(lib.PDFName.of('S')) === lib.PDFName.of('GoTo')) return pageTarget(lib, doc, pages, action.get(lib.PDFName.of('D')));
  return undefined;
}
