/**
 * What the finishing steps need to know of the printed page that the PDF does not say: the
 * outline names a template gave its headings (`data-outline`); for PDF/UA each link's text,
 * which its link annotation repeats as /Contents (Chromium writes the link's text into the
 * content stream only), and whether the page has a title at all (without a <title> Chromium
 * writes the page's address as the PDF's Title). Read only when asked (nothing for a page with
 * no `data-outline` and no PDF/UA), from the DOM, which the print does not change: a template
 * page reads them in the same call that renders (template-page.ts), a round trip fewer per
 * document (a page.evaluate after the print cost an invoice 0.14-0.21 ms of Node's CPU, 0.43 ms
 * of Chromium's and 0.6 ms of wall time, bench/README.md); an HTML page in one round trip after its print.
 */
import type { Page } from 'puppeteer-core';
import { printAccessibility, type AccessibilityOptions } from '../pdf/accessibility-options.js';

/** A heading as the accessibility tree sees it, in document order; `outline` its data-outline, if any. */
export interface PageHeading {
  text: string;
  outline: string | null;
}

/** A link in document order: its target as Chromium writes it (an absolute URL, or "#id" in the document) and its accessible name. */
export interface PageLink {
  target: string;
  name: string;
}

export interface PageFacts {
  /** Only when some heading carries data-outline. */
  headings?: PageHeading[];
  links?: PageLink[];
  /** PDF/UA only: the page's document.title, and its address (Chromium's Title when it has none). */
  title?: string;
  url?: string;
}

/** What a request's finishing steps need of the page: the headings when bookmarks are printed, the links and title for PDF/UA. */
export interface FactsWanted {
  headings: boolean;
  pdfua: boolean;
}

/**
 * Undefined when the request needs nothing of the page. Takes the accessibility options, not
 * render-types.ts's PrintRequest: that file names PageFacts, and the two would import each other.
 */
export function factsWanted(request: AccessibilityOptions): FactsWanted | undefined {
  const headings = printAccessibility(request).outline;
  const pdfua = request.pdfua === true;
  return headings || pdfua ? { headings, pdfua } : undefined;
}

/**
 * A function of (wantHeadings, wantPdfUa) as page-side source text, as print-pdf.ts's page scripts are (a TypeScript transform may wrap a function
 * in helpers the page lacks). Headings skipped here are those Chromium leaves out of its tags:
 * hidden, aria-hidden, or made presentational; any other it leaves out is skipped by the pairing
 * (pdf/outline.ts).
 */
export const READ_PAGE_FACTS = `((wantHeadings, wantPdfUa) => {
  const text = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim();
  // Not checkVisibility: a template page is hidden on screen (template-page.ts), printed all the same.
  const hidden = (el) => !!el.closest('[aria-hidden="true"],[hidden]');
  const facts = {};
  if (wantHeadings && document.querySelector('[data-outline]')) {
    facts.headings = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role="heading"]'))
      .filter((h) => !hidden(h) && !['presentation', 'none'].includes(h.getAttribute('role') || ''))
      .map((h) => ({ text: text(h), outline: h.getAttribute('data-outline') }));
  }
  if (wantPdfUa) {
    facts.title = document.title.trim();
    facts.url = location.href;
    const labelled = (el) => (el.getAttribute('aria-labelledby') || '').split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(text).join(' ');
    const images = (el) => Array.from(el.querySelectorAll('img[alt]')).map((img) => img.alt).join(' ');
    // What a reader hears of a link: hidden parts (a table of contents' dot leader, an icon) part
    // the words around them, so an entry is "Results 4", not its text run into its page number.
    const spoken = (el) => {
      const copy = el.cloneNode(true);
      copy.querySelectorAll('[aria-hidden="true"],[hidden]').forEach((part) => part.replaceWith(' '));
      return text(copy);
    };
    facts.links = Array.from(document.querySelectorAll('a[href]'))
      .filter((a) => !hidden(a))
      .map((a) => {
        const href = a.getAttribute('href');
        const target = href.startsWith('#') ? href : a.href;
        const name = (a.getAttribute('aria-label') || labelled(a) || spoken(a) || images(a) || a.title || '').trim();
        return { target, name };
      });
  }
  return facts;
})`;

export async function readPageFacts(page: Page, want: FactsWanted | undefined): Promise<PageFacts | undefined> {
  if (!want) return undefined;
  return (await page.evaluate(`${READ_PAGE_FACTS}(${want.headings}, ${want.pdfua})`)) as PageFacts;
}
