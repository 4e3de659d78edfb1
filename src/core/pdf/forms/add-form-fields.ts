/**
 * The form step after the print (engine.ts): the template's `<Field>`s become AcroForm fields
 * at the places their boxes were printed (field-links.ts), each with its value and an
 * appearance stream pdf-lib draws in Helvetica, so every viewer shows the value, not only those
 * that honour NeedAppearances. Dotted names ("customer.email") become the field hierarchy PDF
 * names them by, which qpdf, pdftk and Acrobat report as the full name "customer.email".
 * `flatten`: the appearances are drawn into the pages and the form removed (flatten-fields.ts).
 *
 * Chromium makes no forms (crbug 1024713); a document without fields is returned untouched.
 */
import type { PDFCheckBox, PDFDocument, PDFDropdown, PDFTextField, PDFField, PDFFont, PDFPage, PDFRadioGroup, PDFRef } from '@cantoo/pdf-lib';
import { ImprintError } from '../../errors.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain, type PdfLib } from '../pdf-lib.js';
import { findFieldPlaces, type FieldPlace } from './field-links.js';
import { parseFieldSpecs, type FieldSpec } from './field-spec.js';
import { tagWidget } from './field-tags.js';
import { addSignatureField } from './signature-field.js';
import { flattenFields, type PlacedWidget } from './flatten-fields.js';

export interface FormFinishing {
  /** Draw the values into the pages and leave no form. */
  flatten?: boolean;
  /** A PDF/A: no JavaScript (the date fields' formatting actions), which PDF/A forbids. */
  pdfa?: boolean;
}

/** `fields`: what the page reported (untrusted, checked here). */
export async function addFormFields(pdf: Buffer, fields: unknown, finishing: FormFinishing = {}): Promise<Buffer> {
  const specs = parseFieldSpecs(fields);
  if (specs.length === 0) return pdf;
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  const places = findFieldPlaces(lib, doc);
  const font = await doc.embedFont(lib.StandardFonts.Helvetica);
  const made = new Map<string, PDFField>();
  const widgets: PlacedWidget[] = [];
  for (const spec of specs) {
    const at = places.get(spec.link);
    if (!at) {
      throw new ImprintError('RENDER_FAILED', `The <Field name="${spec.name}"> is not shown on any page (display: none, visibility: hidden, or outside the page): a field is placed where its box prints.`);
    }
    if (spec.type === 'signature') {
      // One box, where it was first printed (a box in a running header prints on every page).
      replaceLink(lib, doc, at[0]!, addSignatureField(lib, doc, spec, at[0]!));
      for (const extra of at.slice(1)) replaceLink(lib, doc, extra, undefined);
      continue;
    }
    const field = fieldFor(lib, doc, spec, made, finishing);
    for (const place of at) widgets.push({ place, widget: addWidget(lib, field, spec, place, font), field });
    // Once a widget exists: pdf-lib keeps the size in the default appearance its widgets bring.
    if (spec.type !== 'checkbox' && spec.type !== 'radio') (field as PDFTextField | PDFDropdown).setFontSize(spec.fontSize ?? defaultFontSize(at[0]!.rect.height));
  }
  // The appearances again for the fields a later setting changed (the font size).
  doc.getForm().updateFieldAppearances(font);
  for (const { place, widget } of widgets) replaceLink(lib, doc, place, widget);
  const form = doc.getForm();
  // Viewers draw the appearances written here; asking them to redraw would let each do it its own way.
  form.acroForm.dict.delete(lib.PDFName.of('NeedAppearances'));
  if (finishing.flatten) flattenFields(lib, doc, widgets);
  return savePlain(doc);
}

/**
 * Body text's size, smaller in a low box. pdf-lib's own default fills the box's height (18 pt in
 * an 8 mm box), which no form looks like.
 */
const defaultFontSize = (height: number) => Math.round(Math.min(11, height * 0.65) * 10) / 10;

/** The field named by `spec`, made once (a radio group's buttons share theirs). */
function fieldFor(lib: PdfLib, doc: PDFDocument, spec: FieldSpec, made: Map<string, PDFField>, finishing: FormFinishing): PDFField {
  const existing = made.get(spec.name);
  if (existing) return existing;
  let field: PDFField;
  try {
    field = createField(lib, doc, spec, finishing);
  } catch (error) {
    throw new ImprintError('RENDER_FAILED', `The <Field name="${spec.name}"> could not be made: ${(error as Error).message}`, { cause: error });
  }
  if (spec.required) field.enableRequired();
  if (spec.readOnly) field.enableReadOnly();
  if (spec.label !== undefined) field.acroField.dict.set(lib.PDFName.of('TU'), lib.PDFHexString.fromText(spec.label));
  made.set(spec.name, field);
  return field;
}

function createField(lib: PdfLib, doc: PDFDocument, spec: FieldSpec, finishing: FormFinishing): PDFField {
  const form = doc.getForm();
  switch (spec.type) {
    case 'checkbox':
      return form.createCheckBox(spec.name);
    case 'radio':
      return form.createRadioGroup(spec.name);
    case 'select': {
      const select = form.createDropdown(spec.name);
      select.addOptions(spec.options ?? []);
      if (spec.value !== undefined) select.select(spec.value);
      return select;
    }
    default: {
      const text = form.createTextField(spec.name);
      if (spec.type === 'multiline') text.enableMultiline();
      if (spec.maxLength) text.setMaxLength(spec.maxLength);
      if (spec.value !== undefined) text.setText(spec.value);
      if (spec.type === 'date' && !finishing.pdfa) addDateFormat(lib, doc, text.acroField.dict, spec.format ?? 'yyyy-mm-dd');
      return text;
    }
  }
}

/**
 * Acrobat's own date formatting (its AFDate functions): a viewer that runs form JavaScript keeps
 * what is typed a date in `format` and offers a date picker; the others show a text field.
 */
function addDateFormat(lib: PdfLib, doc: PDFDocument, dict: PDFField['acroField']['dict'], format: string): void {
  const script = (name: string) => doc.context.obj({ S: 'JavaScript', JS: lib.PDFHexString.fromText(`${name}(${JSON.stringify(format)});`) });
  dict.set(lib.PDFName.of('AA'), doc.context.obj({ F: script('AFDate_FormatEx'), K: script('AFDate_KeystrokeEx') }));
}

/** One widget of `field` over the box at `place`; the page's box draws the border and background. */
function addWidget(lib: PdfLib, field: PDFField, spec: FieldSpec, place: FieldPlace, font: PDFFont): PDFRef {
  const { x, y, width, height } = place.rect;
  const look = { x, y, width, height, font, textColor: lib.rgb(0, 0, 0), backgroundColor: undefined, borderColor: undefined, borderWidth: 0 };
  const page: PDFPage = place.page;
  if (spec.type === 'radio') {
    const group = field as PDFRadioGroup;
    group.addOptionToPage(spec.value as string, page, look);
    if (spec.checked) group.select(spec.value as string);
  } else {
    (field as PDFField & { addToPage(page: PDFPage, options: typeof look): void }).addToPage(page, look);
    if (spec.type === 'checkbox' && spec.checked) (field as PDFCheckBox).check();
  }
  const annots = page.node.Annots();
  // pdf-lib appends the widget it made to the page's annotations.
  const widget = annots?.get(annots.size() - 1) as PDFRef;
  // The label on the widget too: qpdf and pdftk take a widget under its field for the field itself.
  if (spec.label !== undefined) field.doc.context.lookup(widget, lib.PDFDict).set(lib.PDFName.of('TU'), lib.PDFHexString.fromText(spec.label));
  return widget;
}

/** The box's link goes; in a tagged PDF the widget takes its place in the structure. */
function replaceLink(lib: PdfLib, doc: PDFDocument, place: FieldPlace, widget: PDFRef | undefined): void {
  if (place.structParent !== undefined && widget) tagWidget(lib, doc, place.structParent, place.annotation, widget);
  place.page.node.removeAnnot(place.annotation);
  doc.context.delete(place.annotation);
}
