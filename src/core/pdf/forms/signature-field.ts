/**
 * A `<Signature>` box becomes an empty signature field at the place it was printed: a widget
 * with /FT /Sig and no value, which the signing step (sign/signature-box.ts) fills, last of all,
 * with the signature and its appearance; a document that is not signed keeps it as the place a
 * reader can sign in their viewer. Its reason travels as the field's seed value (/SV /Reasons).
 * The appearance is empty until then (PDF/A asks every widget for one).
 */
import type { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import type { FieldPlace } from './field-links.js';
import type { FieldSpec } from './field-spec.js';

export function addSignatureField(lib: PdfLib, doc: PDFDocument, spec: FieldSpec, place: FieldPlace): PDFRef {
  const { PDFHexString } = lib;
  const { x, y, width, height } = place.rect;
  const context = doc.context;
  const empty = context.register(context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, width, height] }));
  const widget = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFHexString.fromText(spec.name),
      F: 4,
      Rect: [x, y, x + width, y + height],
      P: place.page.ref,
      AP: { N: empty },
      ...(spec.label === undefined ? {} : { TU: PDFHexString.fromText(spec.label) }),
      ...(spec.value === undefined ? {} : { SV: { Type: 'SV', Reasons: [PDFHexString.fromText(spec.value)] } }),
    }),
  );
  place.page.node.addAnnot(widget);
  doc.getForm().acroForm.addField(widget);
  return widget;
}
