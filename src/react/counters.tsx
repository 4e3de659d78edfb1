/**
 * Page numbers. Only the page margins know which page they are on (CSS's `page` and `pages`
 * counters exist in margin boxes alone), so these are markers that a Header or Footer turns
 * into `counter(page)` and `counter(pages)`; rendered anywhere else they say so. The section
 * ones count within the `<Section>` a page belongs to, from the pages Imprint reads between
 * its prints (section-counters.ts).
 */

/** How a number is written: CSS list-style types. */
export type CounterStyle = 'decimal' | 'decimal-leading-zero' | 'lower-roman' | 'upper-roman' | 'lower-alpha' | 'upper-alpha';

export interface CounterProps {
  /** Default `decimal`: 1, 2, 3. */
  format?: CounterStyle;
}

function misplaced(name: string): never {
  throw new Error(`<${name} /> works only inside <Header> or <Footer> (in the page margins, where Chromium counts pages).`);
}

/** The number of the page it is printed on. Use inside `<Header>` or `<Footer>`. */
export function PageNumber(_props: CounterProps): never {
  return misplaced('PageNumber');
}

/** The number of pages in the document. Use inside `<Header>` or `<Footer>`. */
export function TotalPages(_props: CounterProps): never {
  return misplaced('TotalPages');
}

/** The number of the section (1 for the first `<Section>`) the page belongs to. Use inside `<Header>` or `<Footer>`. */
export function SectionNumber(_props: CounterProps): never {
  return misplaced('SectionNumber');
}

/** The page's number within its `<Section>` (1 on the section's first page). Use inside `<Header>` or `<Footer>`. */
export function SectionPageNumber(_props: CounterProps): never {
  return misplaced('SectionPageNumber');
}

/** The number of pages of the page's `<Section>`. Use inside `<Header>` or `<Footer>`. */
export function SectionPages(_props: CounterProps): never {
  return misplaced('SectionPages');
}
