/**
 * PageRef: the number of the page an element with an id is printed on, as digits, inside any
 * text ("see page <PageRef to="totals" />"). A link to the element as well: a reader clicks it.
 * Chromium cannot print it alone (no CSS target-counter()): Imprint prints the document, reads
 * where the target landed and prints again with the number in (see page-numbers.ts).
 */
import type { CSSProperties } from 'react';
import { PAGE_REF_ATTRIBUTE, pageLabel, targetId } from './page-numbers.js';

export interface PageRefProps {
  /** The id of the element whose page is printed: `"totals"` for `<h2 id="totals">` (a leading `#` is allowed). */
  to: string;
  className?: string;
  style?: CSSProperties;
}

export function PageRef({ to, className, style }: PageRefProps) {
  const id = targetId(to, 'PageRef');
  return (
    <a
      href={`#${id}`}
      {...{ [PAGE_REF_ATTRIBUTE]: id }}
      className={className ? `imprint-page-ref ${className}` : 'imprint-page-ref'}
      style={{ color: 'inherit', textDecoration: 'none', ...style }}
    >
      {pageLabel(id)}
    </a>
  );
}
