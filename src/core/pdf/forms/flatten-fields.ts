/**
 * `--flatten`: each widget's appearance (the value as every viewer shows it) drawn into its page
 * at the widget's place, then the form removed: no /AcroForm, no widgets, the values plain page
 * content. In a tagged PDF the drawing is marked content of the field's structure element
 * (field-tags.ts), so the values stay in what a screen reader reads.
 */
import type { PDFDocument, PDFField, PDFName as PdfName, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import type { FieldPlace } from './field-links.js';
import { tagFlattened } from './field-tags.js';

export interface PlacedWidget {
  place: FieldPlace;
  widget: PDFRef;
  field: PDFField;
}

export function flattenFields(lib: PdfLib, doc: PDFDocument, widgets: PlacedWidget[]): void {
  const { PDFDict, PDFName, PDFOperator, PDFRef, PDFStream, PDFOperatorNames: Ops, pushGraphicsState, popGraphicsState, translate, drawObject } = lib;
  for (const { place, widget } of widgets) {
    const dict = doc.context.lookup(widget, PDFDict);
    const normal = dict.lookupMaybe(PDFName.of('AP'), PDFDict)?.get(PDFName.of('N'));
    // A button's normal appearance is one stream per state; the one drawn is its /AS.
    const appearance = doc.context.lookup(normal) instanceof PDFStream ? normal : doc.context.lookupMaybe(normal, PDFDict)?.get(dict.get(PDFName.of('AS')) as never);
    const mcid = place.structParent === undefined ? undefined : tagFlattened(lib, doc, place.structParent, widget, place.page);
    if (appearance instanceof PDFRef) {
      const name = place.page.node.newXObject('FlatField', appearance);
      const draw = [pushGraphicsState(), translate(place.rect.x, place.rect.y), drawObject(name), popGraphicsState()];
      // pdf-lib's operator type leaves out dictionaries, yet writes one inline as BDC's property list needs.
      const properties = doc.context.obj({ MCID: mcid ?? 0 }) as unknown as PdfName;
      const marked = mcid === undefined ? draw : [PDFOperator.of(Ops.BeginMarkedContentSequence, [PDFName.of('Span'), properties]), ...draw, PDFOperator.of(Ops.EndMarkedContent)];
      place.page.pushOperators(...marked);
    }
    place.page.node.removeAnnot(widget);
  }
  removeForm(lib, doc);
}

/** The whole field tree and the form dictionary, so no field object is left in the file. */
function removeForm(lib: PdfLib, doc: PDFDocument): void {
  const { PDFArray, PDFDict, PDFName, PDFRef } = lib;
  const acroForm = doc.catalog.get(PDFName.of('AcroForm'));
  const remove = (entry: unknown) => {
    const node = doc.context.lookupMaybe(entry as PDFRef, PDFDict);
    const kids = node?.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) remove(kids.get(i));
    if (entry instanceof PDFRef) doc.context.delete(entry);
  };
  const fields = doc.context.lookupMaybe(acroForm, PDFDict)?.lookupMaybe(PDFName.of('Fields'), PDFArray);
  for (let i = 0; fields && i < fields.size(); i++) remove(fields.get(i));
  if (acroForm instanceof PDFRef) doc.context.delete(acroForm);
  doc.catalog.delete(PDFName.of('AcroForm'));
}
