/**
 * Section: a part of the document with page numbers of its own in the margins ("Section 2,
 * page 3 of 7": <SectionNumber/>, <SectionPageNumber/> and <SectionPages/> in a Header or
 * Footer). It starts on a new page unless told otherwise, and runs until the next Section
 * starts (a page two sections share counts for the later one). Its start is a page target
 * like a PageRef's: a hidden link to itself makes Chromium write where it starts.
 */
import { useId, type CSSProperties, type ReactNode } from 'react';
import { PAGE_REF_ATTRIBUTE, PAGE_SECTION_ATTRIBUTE } from './page-numbers.js';

export interface SectionProps {
  /** The section's id (a PageRef or a link may point to it); one is made up when left out. */
  id?: string;
  /** Start on a new page; default true (a section's page count is of whole pages). */
  newPage?: boolean;
  children?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

export function Section({ id, newPage = true, children, className, style }: SectionProps) {
  const generated = `imprint-section-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const target = id || generated;
  return (
    <section
      id={target}
      className={className ? `imprint-section ${className}` : 'imprint-section'}
      style={{ ...(newPage ? { breakBefore: 'page' } : {}), ...style }}
    >
      <a href={`#${target}`} hidden aria-hidden="true" tabIndex={-1} {...{ [PAGE_REF_ATTRIBUTE]: target, [PAGE_SECTION_ATTRIBUTE]: '' }} />
      {children}
    </section>
  );
}
