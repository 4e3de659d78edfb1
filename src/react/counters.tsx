/**
 * Page numbers. Only the page margins know which page they are on (CSS's `page` and `pages`
 * counters exist in margin boxes alone), so these are markers that a Header or Footer turns
 * into `counter(page)` and `counter(pages)`; rendered anywhere else they say so.
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
