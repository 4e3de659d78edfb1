/**
 * The print step, shared by template pages and `generate`: it decides the page setup from the
 * request (page-size.ts), imposes it on the page, and prints. One place, so the same request
 * gives the same page box whatever is printed.
 *
 * Printing goes straight over the page's CDP session: one round trip returning the bytes
 * (Puppeteer's page.pdf adds a font wait we already did, a stream and reads of it).
 * Backgrounds printed, no margins; tagged, with bookmarks from the headings, unless the request
 * says otherwise (pdf/accessibility-options.ts holds the defaults; bench/README.md their cost).
 *
 * Page size: always imposed as an `@page { size }` rule in one style element of ours, replaced
 * on every print, so a warm page never keeps a previous render's size. A size the request
 * names is `!important` and kept last in the head: Chromium's paper-size options alone do not
 * do it (a page that declares its own `@page size` keeps that orientation whatever the paper
 * says, and even `@page :first` rules win), the injected rule beats all of them. With nothing
 * asked, A4 goes first in the head without `!important`, so any `@page size` of the page's own
 * wins over it. Always a rule, never the paper alone: Chromium lays out a CSS size and a paper
 * size differently (A4 by CSS is 594.96 pt wide, by paper 595.92), and one A4 must print the
 * same page box wherever it comes from.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import { parseCssPageSize, parseDocumentSize, resolvePageSetup, type PageSetup } from '../page-size.js';
import { printAccessibility } from '../pdf/accessibility-options.js';
import { readPageFacts, type PageFacts } from './page-facts.js';
import { withOptimizedImages } from './images/optimize.js';
import { markRender } from './render-timing.js';
import type { PrintRequest } from './render-types.js';

export const PAGE_SIZE_STYLE_ID = '__imprint-page-size';

const inches = (points: number) => points / 72;

/** The rule that imposes the setup: the request's size wins over the page's CSS, a default does not. */
export function pageSizeCss(setup: PageSetup): string {
  return `@page { size: ${setup.size.widthPt.toFixed(3)}pt ${setup.size.heightPt.toFixed(3)}pt${setup.preferCssPageSize ? '' : ' !important'}; }`;
}

/**
 * The page's own `@page { size }`, read from its stylesheets (ours left out); the same reading
 * as the template runtime's (runtime/mount.tsx). Given as source text: functions handed to
 * page.evaluate are serialised, and a TypeScript transform may wrap them in helpers the page lacks.
 */
const READ_CSS_PAGE_SIZE = `(() => {
  for (const sheet of Array.from(document.styleSheets)) {
    if (sheet.ownerNode && sheet.ownerNode.id === ${JSON.stringify(PAGE_SIZE_STYLE_ID)}) continue;
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSPageRule && !rule.selectorText) {
        const size = rule.style.getPropertyValue('size');
        if (size) return size;
      }
    }
  }
  return null;
})()`;

/**
 * The page setup when the request alone decides it (every request but an orientation without
 * a size, which turns the page's own CSS size): a template page then imposes it in the same
 * call that renders (template-page.ts), one round trip into the page fewer per document.
 */
export function plannedPageSetup(request: PrintRequest): PageSetup | undefined {
  const size = request.size === undefined ? undefined : parseDocumentSize(request.size);
  if (size === undefined && request.orientation !== undefined) return undefined;
  return resolvePageSetup({ size, orientation: request.orientation });
}

/** Decides the page setup: the request's size and orientation, the page's own CSS size, A4. */
async function decidePageSetup(page: Page, request: PrintRequest): Promise<PageSetup> {
  const planned = plannedPageSetup(request);
  if (planned) return planned;
  const css = (await page.evaluate(READ_CSS_PAGE_SIZE)) as string | null;
  return resolvePageSetup({ orientation: request.orientation }, css ? parseCssPageSize(css) : undefined);
}

/**
 * Puts the rule in the page: the page-side half, as source text, so that the template page's
 * helper runs the very same code after its render (functions handed to page.evaluate are
 * serialised, and a TypeScript transform may wrap them in helpers the page lacks).
 */
export const IMPOSE_PAGE_SIZE = `(id, text, first) => {
  const style = document.getElementById(id) ?? Object.assign(document.createElement('style'), { id });
  style.textContent = text;
  const head = document.head ?? document.documentElement;
  if (first) head.prepend(style);
  else head.appendChild(style);
}`;

async function imposePageSetup(page: Page, setup: PageSetup): Promise<void> {
  await page.evaluate(`(${IMPOSE_PAGE_SIZE})(${JSON.stringify(PAGE_SIZE_STYLE_ID)}, ${JSON.stringify(pageSizeCss(setup))}, ${setup.preferCssPageSize})`);
}

/** The print, and what the finishing steps need to know of the page (page-facts.ts), when they need anything. */
export interface PrintedPage {
  pdf: Buffer;
  facts?: PageFacts;
}

/**
 * Decides the page setup for `request`, imposes it on `page`, and prints it over `cdp` (the
 * page's session). `imposed`: the setup the page already holds (put there with the render by
 * template-page.ts, from plannedPageSetup): printed as it stands.
 */
export async function printPage(page: Page, cdp: CDPSession, request: PrintRequest, imposed?: PageSetup): Promise<PrintedPage> {
  const accessibility = printAccessibility(request);
  const setup = imposed ?? (await decidePageSetup(page, request));
  if (!imposed) await imposePageSetup(page, setup);
  const print = () => printToPdf(cdp, accessibility, setup);
  const pdf = await (request.optimizeImages ? withOptimizedImages(page, request.optimizeImages, setup, print) : print());
  const facts = await readPageFacts(page, { headings: accessibility.outline, pdfua: request.pdfua === true });
  return { pdf, facts };
}

async function printToPdf(cdp: CDPSession, accessibility: ReturnType<typeof printAccessibility>, setup: PageSetup): Promise<Buffer> {
  markRender('print-start');
  const { data } = await cdp.send('Page.printToPDF', {
    // The paper under the imposed rule; the rule decides the page box.
    paperWidth: inches(setup.size.widthPt),
    paperHeight: inches(setup.size.heightPt),
    preferCSSPageSize: true,
    printBackground: true,
    marginTop: 0,
    marginBottom: 0,
    marginLeft: 0,
    marginRight: 0,
    generateTaggedPDF: accessibility.tagged,
    // Chromium builds the outline from its tags: one entry per heading, nested by level.
    generateDocumentOutline: accessibility.outline,
  });
  markRender('print-end');
  return Buffer.from(data, 'base64');
}
