/**
 * Where a visible signature goes: `<Signature reason="Approved" style={{ width: 220, height: 60 }} />`.
 * The page shows an empty box (style it: a border, a line to sign on); after the print Imprint
 * makes it an empty signature field at exactly that place, and signing (`--sign`, or the
 * service's `sign`) fills it, as the last step, with the signer's name, the date and the reason.
 * Unsigned, it stays a field a reader can sign in their viewer.
 *
 * The box is placed the way a `<Field>`'s is (a link Chromium prints as an annotation at the
 * box's rectangle: see field.tsx), so it lands where the pagination put it.
 */
import { useId, type CSSProperties } from 'react';
import { FIELD_LINK_ORIGIN, FIELD_SPEC_ATTRIBUTE } from '../runtime/page-protocol.js';

export interface SignatureProps {
  /** The signature field's name (one part, no dots); "Signature" by default. */
  name?: string;
  /** Why the document is signed, shown in the box and written into the signature (/Reason). */
  reason?: string;
  /** What a screen reader and a viewer's tooltip say about the box. */
  label?: string;
  className?: string;
  style?: CSSProperties;
}

export function Signature({ name = 'Signature', reason, label, className, style }: SignatureProps) {
  const id = useId();
  // The form step's description: a field of type signature, its value the reason (core/pdf/forms/field-spec.ts).
  const spec = { name, type: 'signature', value: reason, label };
  return (
    <a
      href={`${FIELD_LINK_ORIGIN}${encodeURIComponent(id)}`}
      {...{ [FIELD_SPEC_ATTRIBUTE]: JSON.stringify(spec) }}
      aria-label={label ?? reason ?? 'Signature'}
      className={className ? `imprint-signature ${className}` : 'imprint-signature'}
      style={{ display: 'inline-block', verticalAlign: 'middle', boxSizing: 'border-box', breakInside: 'avoid', width: 200, height: 50, ...style }}
    />
  );
}
