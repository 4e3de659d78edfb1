/**
 * The print step, shared by template pages and `generate`: it decides the page setup from the
 * request (page-size.ts), imposes it on the page, and prints. One place, so the same request
 * gives the same page box whatever is printed.
 *
 * Printing goes straight over the page's CDP session (Puppeteer's page.pdf adds a font wait we
 * already did). A small document comes back in the answer, one round trip returning the bytes as
 * base64; a long one as a protocol stream read in chunks (protocol-stream.ts), so no message over
 * the pipe and no string in Node grows with the document: one base64 answer cost Node 139 MiB
 * at its peak for a 24 MiB PDF, the stream nothing measurable, while on an invoice the stream
 * cost 0 to 20 % more than the one answer (bench/print-transfer.ts, bench/README.md). Which is
 * which is told by the laid-out content's height before the print (one Page.getLayoutMetrics,
 * too cheap to measure on this machine).
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
import { ImprintError } from '../errors.js';
import { parseCssPageSize, parseDocumentSize, resolvePageSetup, type PageSetup } from '../page-size.js';
import { printAccessibility, printedAccessibility, type PrintAccessibility } from '../pdf/accessibility-options.js';
import { factsWanted, readPageFacts, type PageFacts } from './page-facts.js';
import { withOptimizedImages } from './images/optimize.js';
import { readProtocolStream } from './protocol-stream.js';
import { collectChunks } from '../spool/spool-chunks.js';
import type { SpoolPolicy } from '../spool/spool-policy.js';
import type { PdfBytes } from '../spool/spooled-pdf.js';
import { markRender } from './render-timing.js';
import type { PrintRequest } from './render-types.js';

export const PAGE_SIZE_STYLE_ID = '__imprint-page-size';

const inches = (points: number) => points / 72;

/** Puppeteer's per-call timeout for the print: 0, none (printToPdf says why). */
export const PRINT_CALL_TIMEOUT = 0;

/** From about this many pages of content (screen layout, so an estimate) the PDF is streamed. */
export const STREAM_FROM_PAGES = 20;

/**
 * The page's content height in pages of the setup's size (screen layout, so an estimate):
 * `measured` (CSS pixels) when the page read it itself, as a template page does before it skips
 * its contents for the screen (template-page.ts: the layout metrics would then be the window's
 * 600 px, and no template was ever streamed); else Chromium's layout metrics.
 */
async function contentPages(cdp: CDPSession, setup: PageSetup, measured: number | undefined): Promise<number> {
  const height = measured ?? (await cdp.send('Page.getLayoutMetrics')).cssContentSize.height;
  return height / (inches(setup.size.heightPt) * 96);
}

/**
 * Chromium's answer when its page gives out during the print ("Printing failed"; the page is
 * gone after it). Seen on documents of thousands of pages: the print lays out the whole
 * document, and one table of 35,000 rows took about 10 MB of Chromium's memory a page, so the
 * page died near 2,000 pages (bench/README.md, Big documents). Said so, with what to do.
 */
function printFailure(error: unknown, pages: number): unknown {
  if (!(error instanceof Error) || !/Printing failed/.test(error.message)) return error;
  return new ImprintError(
    'RENDER_FAILED',
    `Chromium could not print this document (about ${Math.round(pages)} pages of content): its page gave out during the print ("Printing failed"). ` +
      'A very long document is the usual cause: Chromium lays the whole document out for print, and one table of tens of thousands of rows costs it about 10 MB a page. ' +
      'Print a long table\'s rows as blocks instead, or split the document into several documents.',
    { cause: error },
  );
}

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
export interface PrintedPage<Pdf extends PdfBytes = PdfBytes> {
  /** A spooled file past the spool policy's threshold (spool/spool-chunks.ts), else the bytes. */
  pdf: Pdf;
  facts?: PageFacts;
  /** Whether the print carries tags: the request's, or none for a long document that asked for none (accessibility-options.ts). */
  tagged: boolean;
}

/** What the page read with its render (template-page.ts): the facts, and its content height for the streaming decision. */
export interface ReadWithRender {
  facts: PageFacts | undefined;
  contentHeight?: number;
}

/**
 * Decides the page setup for `request`, imposes it on `page`, and prints it over `cdp` (the
 * page's session). `imposed`: the setup the page already holds (put there with the render by
 * template-page.ts, from plannedPageSetup): printed as it stands. `read`: the page's facts
 * already read with the render (template-page.ts, factsWanted); without it they are read here,
 * after the print. `spool`: when a streamed print goes to a file (spool/spool-policy.ts); none keeps it in memory.
 */
export async function printPage(page: Page, cdp: CDPSession, request: PrintRequest, imposed?: PageSetup, read?: ReadWithRender): Promise<PrintedPage<Buffer>>;
export async function printPage(page: Page, cdp: CDPSession, request: PrintRequest, imposed: PageSetup | undefined, read: ReadWithRender | undefined, spool: SpoolPolicy | undefined): Promise<PrintedPage>;
export async function printPage(page: Page, cdp: CDPSession, request: PrintRequest, imposed?: PageSetup, read?: ReadWithRender, spool?: SpoolPolicy): Promise<PrintedPage> {
  const setup = imposed ?? (await decidePageSetup(page, request));
  if (!imposed) await imposePageSetup(page, setup);
  const print = () => printToPdf(cdp, printAccessibility(request), setup, spool, read?.contentHeight);
  const { pdf, tagged } = await (request.optimizeImages ? withOptimizedImages(page, request.optimizeImages, setup, print) : print());
  // An untagged print has no outline or structure for the facts to name.
  const facts = !tagged ? undefined : read ? read.facts : await readPageFacts(page, factsWanted(request));
  return { pdf, facts, tagged };
}

async function printToPdf(cdp: CDPSession, asked: PrintAccessibility, setup: PageSetup, spool: SpoolPolicy | undefined, contentHeight: number | undefined): Promise<{ pdf: PdfBytes; tagged: boolean }> {
  const pages = await contentPages(cdp, setup, contentHeight);
  const accessibility = printedAccessibility(asked, pages);
  const stream = pages >= STREAM_FROM_PAGES;
  markRender('print-start');
  const printing = cdp.send('Page.printToPDF', {
    transferMode: stream ? 'ReturnAsStream' : 'ReturnAsBase64',
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
    // No timeout of Puppeteer's own (its protocolTimeout, 180 s a call): the render's deadline
    // bounds the print (the pool closes the page at it), and a tagged 2,000-page document's
    // print alone took longer than 180 s here (bench/big-document.ts), failing with "timed out".
  }, { timeout: PRINT_CALL_TIMEOUT });
  const printed = await printing.catch((error: unknown) => {
    throw printFailure(error, pages);
  });
  const pdf = stream ? await readStreamed(cdp, printed.stream, spool) : Buffer.from(printed.data, 'base64');
  markRender('print-end');
  return { pdf, tagged: accessibility.tagged };
}

/** The streamed PDF: one Buffer while small (the chunks are small, the Buffer is the document once), a spooled file past the policy's threshold. */
async function readStreamed(cdp: CDPSession, handle: string | undefined, spool: SpoolPolicy | undefined): Promise<PdfBytes> {
  if (!handle) throw new Error('Chromium answered Page.printToPDF without the stream it was asked for.');
  return collectChunks(readProtocolStream(cdp, handle), spool);
}
