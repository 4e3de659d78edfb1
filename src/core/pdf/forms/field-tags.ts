/**
 * A tagged PDF's structure kept true when a field's box changes hands. Chromium tags each link
 * with a /Link structure element holding its annotation (an OBJR) and the box's drawing; the
 * field's widget takes the annotation's place there (the element becomes /Form, as PDF/UA asks
 * of a form field), and a flattened field's drawing is marked content of that element instead.
 */
import type { PDFArray, PDFDict, PDFDocument, PDFObject, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';

/** The structure element entry `key` of the parent tree (a number tree) points at. */
function parentTreeEntry(lib: PdfLib, doc: PDFDocument, key: number): PDFObject | undefined {
  const { PDFArray, PDFDict, PDFName, PDFNumber } = lib;
  const root = doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const search = (node: PDFDict | undefined): PDFObject | undefined => {
    if (!node) return undefined;
    const nums = node.lookupMaybe(PDFName.of('Nums'), PDFArray);
    for (let i = 0; nums && i + 1 < nums.size(); i += 2) {
      if (nums.lookupMaybe(i, PDFNumber)?.asNumber() === key) return nums.get(i + 1);
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      const found = search(kids.lookupMaybe(i, PDFDict));
      if (found) return found;
    }
    return undefined;
  };
  return search(root?.lookupMaybe(PDFName.of('ParentTree'), PDFDict));
}

/** The element a link's /StructParent names, and how the parent tree refers to it. */
function structElementOf(lib: PdfLib, doc: PDFDocument, structParent: number): { element: PDFDict; entry: PDFObject } | undefined {
  const entry = parentTreeEntry(lib, doc, structParent);
  const element = entry === undefined ? undefined : doc.context.lookupMaybe(entry, lib.PDFDict);
  return element && entry ? { element, entry } : undefined;
}

/** The element's kids as an array (a single kid is written bare). */
function kidsOf(lib: PdfLib, doc: PDFDocument, element: PDFDict): PDFArray {
  const { PDFArray, PDFName } = lib;
  const kids = element.get(PDFName.of('K'));
  const found = kids === undefined ? undefined : doc.context.lookup(kids);
  const array = found instanceof PDFArray ? found : doc.context.obj(kids === undefined ? [] : [kids]);
  element.set(PDFName.of('K'), array);
  return array;
}

/** Whether `kid` is an OBJR of `annotation`. */
function isReferenceTo(lib: PdfLib, doc: PDFDocument, kid: unknown, annotation: PDFRef): boolean {
  // A kid is also a marked-content id (a number) or a child element.
  const dict = doc.context.lookup(kid as PDFRef);
  return dict instanceof lib.PDFDict && dict.get(lib.PDFName.of('Type')) === lib.PDFName.of('OBJR') && dict.get(lib.PDFName.of('Obj')) === annotation;
}

/** The widget takes the link's place in the structure; its element becomes /Form. */
export function tagWidget(lib: PdfLib, doc: PDFDocument, structParent: number, link: PDFRef, widget: PDFRef): void {
  const { PDFDict, PDFName, PDFNumber } = lib;
  const element = structElementOf(lib, doc, structParent)?.element;
  if (!element) return;
  const kids = kidsOf(lib, doc, element);
  for (let i = 0; i < kids.size(); i++) {
    if (isReferenceTo(lib, doc, kids.get(i), link)) doc.context.lookup(kids.get(i), PDFDict).set(PDFName.of('Obj'), widget);
  }
  element.set(PDFName.of('S'), PDFName.of('Form'));
  doc.context.lookup(widget, PDFDict).set(PDFName.of('StructParent'), PDFNumber.of(structParent));
}

/**
 * A flattened field: the link's element loses its annotation and gains the drawing of the
 * value, as a marked-content id of `page` (returned, for the BDC around the drawing), so the
 * value a reader sees is in the structure a screen reader reads.
 */
export function tagFlattened(lib: PdfLib, doc: PDFDocument, structParent: number, link: PDFRef, page: PDFPage): number | undefined {
  const { PDFArray, PDFName, PDFNumber } = lib;
  const found = structElementOf(lib, doc, structParent);
  const pageKey = page.node.lookupMaybe(PDFName.of('StructParents'), PDFNumber)?.asNumber();
  const pageEntry = pageKey === undefined ? undefined : parentTreeEntry(lib, doc, pageKey);
  const marks = pageEntry === undefined ? undefined : doc.context.lookupMaybe(pageEntry, PDFArray);
  if (!found || !marks) return undefined;
  const { element, entry } = found;
  const kids = kidsOf(lib, doc, element);
  for (let i = kids.size() - 1; i >= 0; i--) if (isReferenceTo(lib, doc, kids.get(i), link)) kids.remove(i);
  const mcid = marks.size();
  marks.push(entry);
  kids.push(doc.context.obj({ Type: 'MCR', Pg: page.ref, MCID: mcid }));
  element.set(PDFName.of('S'), PDFName.of('Span'));
  return mcid;
}
