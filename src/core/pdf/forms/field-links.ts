/**
 * Where each `<Field>` landed: the /Link annotations Chromium printed for the fields' boxes
 * (their URI is FIELD_LINK_ORIGIN plus the box's id). Chromium paginated the document, so the
 * link's page and /Rect are exactly where the box was drawn, whatever the page size, margins,
 * breaks or running headers did; a box in a running header is printed on every page, so one
 * field may have several places.
 */
import type { PDFDict, PDFDocument, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import { FIELD_LINK_ORIGIN } from '../../../runtime/page-protocol.js';

export interface FieldPlace {
  page: PDFPage;
  /** The link annotation, removed once the field's widget takes its place. */
  annotation: PDFRef;
  /** PDF user space: left, bottom, width, height. */
  rect: { x: number; y: number; width: number; height: number };
  /** In a tagged PDF, the link's entry in the structure's parent tree. */
  structParent?: number;
}

/** The places of every field box in `doc`, by the box's link. */
export function findFieldPlaces(lib: PdfLib, doc: PDFDocument): Map<string, FieldPlace[]> {
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFString, PDFHexString } = lib;
  const places = new Map<string, FieldPlace[]>();
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annots) continue;
    for (let index = 0; index < annots.size(); index++) {
      const ref = annots.get(index);
      if (!(ref instanceof PDFRef)) continue;
      const annotation = doc.context.lookupMaybe(ref, PDFDict);
      if (annotation?.get(PDFName.of('Subtype')) !== PDFName.of('Link')) continue;
      const uri = annotation.lookupMaybe(PDFName.of('A'), PDFDict)?.lookup(PDFName.of('URI'));
      const link = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : undefined;
      if (!link?.startsWith(FIELD_LINK_ORIGIN)) continue;
      const [x1, y1, x2, y2] = rectangleOf(annotation, lib);
      const structParent = annotation.lookupMaybe(PDFName.of('StructParent'), PDFNumber)?.asNumber();
      const place: FieldPlace = { page, annotation: ref, rect: { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) }, structParent };
      places.set(link, [...(places.get(link) ?? []), place]);
    }
  }
  return places;
}

function rectangleOf(annotation: PDFDict, { PDFArray, PDFName, PDFNumber }: PdfLib): number[] {
  const rect = annotation.lookup(PDFName.of('Rect'), PDFArray);
  return [0, 1, 2, 3].map((i) => rect.lookup(i, PDFNumber).asNumber());
}
