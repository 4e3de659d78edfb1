/**
 * A fillable form field: `<Field name="customer.email" type="text" value={props.email} />`.
 * The page shows an empty box (style it with className/style: a border, a width); after the
 * print Imprint puts an AcroForm field with the value exactly over it, on the page it landed
 * on (core/pdf/forms). `--flatten` makes the values page content instead.
 *
 * The box is a link to FIELD_LINK_ORIGIN: Chromium prints a link as an annotation at the box's
 * place, which is how the printed rectangle is found; the link itself is removed.
 */
import { useId, type CSSProperties } from 'react';
import { FIELD_LINK_ORIGIN, FIELD_SPEC_ATTRIBUTE } from '../runtime/page-protocol.js';

interface FieldCommon {
  /** The field's full name; dots make a hierarchy ("customer.email" is field email under customer), as PDF forms name them. */
  name: string;
  /** What a screen reader and a viewer's tooltip say about the field (the PDF's /TU). */
  label?: string;
  /** The viewer asks for a value before the form is submitted. */
  required?: boolean;
  /** Shown, not editable. */
  readOnly?: boolean;
  /** Points; by default the text is sized to fit the box. */
  fontSize?: number;
  /** The box's size and look (border, background) in the page; the field takes the box's place. */
  className?: string;
  style?: CSSProperties;
}

export type FieldProps = FieldCommon &
  (
    | { type: 'text'; value?: string; maxLength?: number }
    | { type: 'multiline'; value?: string; maxLength?: number }
    | { type: 'checkbox'; checked?: boolean }
    /** One button of the group `name`; `value` is this button's option, `checked` marks the chosen one. */
    | { type: 'radio'; value: string; checked?: boolean }
    | { type: 'select'; options: string[]; value?: string }
    /** `value` as shown, e.g. "2026-11-28"; `format` is how a viewer that edits dates (Acrobat) keeps them, "yyyy-mm-dd" by default. */
    | { type: 'date'; value?: string; format?: string }
  );

/** The box a field takes when its style says nothing else, in CSS px. */
const DEFAULT_SIZE: Record<FieldProps['type'], { width: number; height: number }> = {
  text: { width: 200, height: 22 },
  multiline: { width: 300, height: 66 },
  checkbox: { width: 14, height: 14 },
  radio: { width: 14, height: 14 },
  select: { width: 200, height: 22 },
  date: { width: 110, height: 22 },
};

export function Field(props: FieldProps) {
  const id = useId();
  const { className, style, ...spec } = props;
  return (
    <a
      href={`${FIELD_LINK_ORIGIN}${encodeURIComponent(id)}`}
      {...{ [FIELD_SPEC_ATTRIBUTE]: JSON.stringify(spec) }}
      aria-label={props.label ?? props.name}
      className={className ? `imprint-field ${className}` : 'imprint-field'}
      // Inline-block: one box that never splits across lines or pages, so one rectangle.
      style={{ display: 'inline-block', verticalAlign: 'middle', boxSizing: 'border-box', breakInside: 'avoid', ...DEFAULT_SIZE[props.type], ...style }}
    />
  );
}
