/**
 * A part's pages made ready to be copied into another document with their links working.
 * pdf-lib copies a page with everything it references; a link's destination references a page
 * of the part, which it would copy a second time as a page outside the page tree (so the link
 * would open a page no one sees), and a named destination names an entry of the part's name
 * tree, which is not copied. So before the copy each internal link's destination becomes a
 * page index (destinations.ts), and after it the page of the merged document at that index.
 *
 * Also dropped before the copy: what ties a page to the part's structure tree (/StructParents,
 * an annotation's /StructParent), whose keys would name elements of the main document's tree,
 * and an annotation's /P, which would drag its page in as such a second copy.
 */
import type { PDFDocument, PDFDict, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import { itemTarget, pageIndexes } from './destinations.js';

type Doc = PDFDocument;
type Dict = PDFDict;
type Ref = PDFRef;

function annotations(lib: PdfLib, doc: Doc, page: Dict): Dict[] {
  const annots = doc.context.lookup(page.get(lib.PDFName.of('Annots')));
  if (!(annots instanceof lib.PDFArray)) return [];
  const dicts: Dict[] = [];
  for (let index = 0; index < annots.size(); index++) {
    const annot = doc.context.lookup(annots.get(index));
    if (annot instanceof lib.PDFDict) dicts.push(annot);
  }
  return dicts;
}

/** Where a link's destination lives: the annotation's /Dest, or its GoTo action's /D. */
function destinationHolder(lib: PdfLib, doc: Doc, annot: Dict): { holder: Dict; key: 'Dest' | 'D' } | undefined {
  if (annot.get(lib.PDFName.of('Dest')) !== undefined) return { holder: annot, key: 'Dest' };
  const action = doc.context.lookup(annot.get(lib.PDFName.of('A')));
  if (action instanceof lib.PDFDict && action.get(lib.PDFName.of('S')) === lib.PDFName.of('GoTo')) return { holder: action, key: 'D' };
  return undefined;
}

/** Before the copy, on the part's own (disposable) document. */
export function detachPartPages(lib: PdfLib, doc: Doc): void {
  const { PDFName, PDFNumber } = lib;
  const pages = pageIndexes(doc);
  for (const page of doc.getPages()) {
    page.node.delete(PDFName.of('StructParents'));
    for (const annot of annotations(lib, doc, page.node)) {
      annot.delete(PDFName.of('P'));
      annot.delete(PDFName.of('StructParent'));
      const place = destinationHolder(lib, doc, annot);
      if (!place) continue;
      const target = itemTarget(lib, doc, pages, annot);
      // A destination that names no page of the part leads nowhere after the copy either.
      if (!target) place.holder.delete(PDFName.of(place.key));
      else place.holder.set(PDFName.of(place.key), doc.context.obj([PDFNumber.of(target.pageIndex), ...target.view]));
    }
  }
}

/** After the copy: each link's page index becomes the page at that index of the part's copy in the merged document. */
export function reattachPartLinks(lib: PdfLib, doc: Doc, copied: { node: Dict }[], pageRefs: Ref[]): void {
  const { PDFName, PDFNumber, PDFArray } = lib;
  for (const page of copied) {
    for (const annot of annotations(lib, doc, page.node)) {
      const place = destinationHolder(lib, doc, annot);
      const dest = place && doc.context.lookup(place.holder.get(PDFName.of(place.key)));
      if (!place || !(dest instanceof PDFArray)) continue;
      const index = dest.get(0);
      if (!(index instanceof PDFNumber)) continue;
      const ref = pageRefs[index.asNumber()];
      if (ref) dest.set(0, ref);
      else place.holder.delete(PDFName.of(place.key));
    }
  }
}
