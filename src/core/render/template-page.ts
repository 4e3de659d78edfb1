/**
 * A page holding one template artifact, loaded once and rendered many times. Loading: the
 * shell page from the fake template origin, answered from memory, then a small helper installed
 * in the page. Rendering: one call into the page (reset, check, render, the page size imposed
 * when the request alone decides it, and the page facts the finishing steps need, page-facts.ts),
 * then the print step (print-pdf.ts).
 *
 * Between renders the page runtime unmounts the previous React root (`reset`). The helper then
 * compares the document outside the root with how it was before the first render: a template
 * that added nodes to <body> or changed attributes of <html>/<body> would show them in the next
 * document, so such a page is reported dirty and replaced. State a template keeps in its own
 * module scope cannot be seen from here; the pool bounds it by replacing pages every K renders.
 *
 * Nobody looks at these pages on a screen, yet Chromium paints every change to them for one:
 * after each render it rasterises the new document for the 800x600 view, about a fifth of a
 * render's CPU. The helper hides the document for screen media only (SCREEN_HIDDEN_CSS): layout,
 * font loading, observers and animation frames go on as before, the screen paints nothing, and
 * the print (print media) is untouched.
 *
 * Chromium also lays the page out for the screen again around every print (at the paper's
 * width before it, back at the window's after it) and runs a frame after it: 3 to 4 ms of a
 * 2-page invoice's CPU, thrown away with the document at the next render. So once a render has
 * settled, the helper skips the body's contents for screen media (SCREEN_SKIPPED_CSS,
 * `content-visibility: hidden`, which keeps the layout tree and the shaped text for the print,
 * where `display: none` would drop them), and shows them again once the next render has
 * unmounted the last document, before the new one renders: its layout finds the web fonts and
 * images to wait for, and its layout effects may measure. Not
 * while the template waits on frames (observers, frame callbacks: `framesWanted`), since a frame
 * between the render and the print would show them skipped contents, nor for artifacts built
 * before the runtime told. The runtime also skips the new document once it is laid out, while
 * the render settles (the `screen` hook of render(): the screen frame that comes meanwhile
 * paints nothing), and shows it again for any change or frame the template waits on.
 */
import { printAccessibility } from '../pdf/accessibility-options.js';
import { FLAT_ROW_SIBLINGS, GROUP_FLAT_ROWS, UNGROUP_ROWS } from './flat-rows.js';
import type { CDPSession, Page } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import { ImprintError } from '../errors.js';
import type { TemplateNetwork } from '../net/template-network.js';
import {
  PAGE_NUMBERS_GLOBAL,
  PAGE_REF_ATTRIBUTE,
  PAGE_SECTION_ATTRIBUTE,
  TEMPLATE_ORIGIN,
  type ImprintPageWindow,
  type PageNumbers,
  type PageRefs,
  type PageRenderError,
  type PageRenderOutcome,
} from '../../runtime/page-protocol.js';
import { disarmPageScripts } from './disarm-page.js';
import { factsWanted, READ_PAGE_FACTS, type FactsWanted, type PageFacts } from './page-facts.js';
import { settlePageNumbers, type PrintedPass } from './page-number-passes.js';
import type { SpoolPolicy } from '../spool/spool-policy.js';
import { IMPOSE_PAGE_SIZE, PAGE_SIZE_STYLE_ID, pageSizeCss, plannedPageSetup, printPage } from './print-pdf.js';
import type { CheckedEInvoice, EInvoiceCheck, PrintRequest, RenderedDocument } from './render-types.js';
import { guideUrl } from '../guides.js';
import { formatPosition, locateInTemplate, templateStackDetails } from './template-stack.js';
import { routeTemplateRequest, templateResponses } from './template-route.js';

/** Visibility, not display: layout (and so font loading and every observer) must still happen. */
export const SCREEN_HIDDEN_CSS = '@media screen { html { visibility: hidden !important; } }';
/** Between a settled render and the next only: the screen lays nothing out. */
export const SCREEN_SKIPPED_CSS = '@media screen { body { content-visibility: hidden !important; } }';

/**
 * `pageRefs`: the targets whose pages the document asks for (page-number-passes.ts), when it has
 * any; `facts`: what the finishing steps need of the page (page-facts.ts), when they need any.
 */
type HelperOutcome = (PageRenderOutcome & { pageRefs?: PageRefs; facts?: PageFacts; contentHeight?: number }) | { ok: false; reason: 'dirty' };

/** The page's window, for the functions below that run in it (this file is Node code: no DOM). */
declare const window: ImprintPageWindow;

declare global {
  interface Window {
    __imprintPool: {
      render(props: unknown, pageSize: { css: string; first: boolean } | null, numbers: PageNumbers | null, facts: FactsWanted | null): Promise<HelperOutcome>;
    };
  }
}

/**
 * Installed once per page, as source text: functions handed to page.evaluate are serialised,
 * and a TypeScript transform may wrap named inner functions in helpers the page lacks.
 */
const PAGE_HELPER = `(() => {
  const api = window.__imprint;
  const attributes = (element) => Array.from(element.attributes, (a) => a.name + '=' + a.value).join('\\n');
  const snapshot = () => ({ body: document.body.childElementCount, html: attributes(document.documentElement), bodyAttributes: attributes(document.body) });
  const baseline = snapshot();
  document.head.appendChild(Object.assign(document.createElement('style'), { textContent: ${JSON.stringify(SCREEN_HIDDEN_CSS)} }));
  // A style sheet switched on and off (disabled), not an attribute: no mutation a template observes.
  const skipped = document.head.appendChild(Object.assign(document.createElement('style'), { textContent: ${JSON.stringify(SCREEN_SKIPPED_CSS)} }));
  skipped.disabled = true;
  const impose = ${IMPOSE_PAGE_SIZE};
  const readFacts = ${READ_PAGE_FACTS};
  // Rows grouped for a tagged print (flat-rows.ts), given back before the next render.
  const groupRows = ${GROUP_FLAT_ROWS};
  const ungroupRows = ${UNGROUP_ROWS};
  let grouped = [];
  // The links of imprint/react's page-number components, read after a render: only a document
  // that has some is printed more than once. Keyed by the names Chromium gives destinations.
  const pageRefs = () => {
    const links = document.querySelectorAll('a[${PAGE_REF_ATTRIBUTE}]');
    if (links.length === 0) return undefined;
    const refs = { ids: [], destinations: {}, sections: [], labels: {} };
    for (const link of links) {
      const id = link.getAttribute('${PAGE_REF_ATTRIBUTE}');
      if (!id) continue;
      if (link.hasAttribute('${PAGE_SECTION_ATTRIBUTE}')) refs.sections.push(id);
      if (id in refs.destinations) continue;
      refs.ids.push(id);
      refs.destinations[id] = link.hash.slice(1);
      const target = document.getElementById(id);
      refs.labels[id] = target ? (target.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60) : '';
    }
    return refs;
  };
  window.__imprintPool = {
    async render(props, pageSize, numbers, facts, rowsFrom) {
      ungroupRows(grouped);
      grouped = [];
      if (typeof api.reset === 'function') {
        api.reset();
        const now = snapshot();
        const root = document.getElementById('root');
        if (now.body !== baseline.body || now.html !== baseline.html || now.bodyAttributes !== baseline.bodyAttributes || (root && root.firstChild)) {
          return { ok: false, reason: 'dirty' };
        }
      }
      // The screen again, for the new document: after the unmount, which costs less on skipped
      // contents (0.8 ms against 1.2 for the invoice).
      skipped.disabled = true;
      // The previous print's page size goes: the template's own CSS is what this render reports.
      document.getElementById(${JSON.stringify(PAGE_SIZE_STYLE_ID)})?.remove();
      // The pages a previous print found, for this render's components to show; none on a first print.
      if (numbers) window[${JSON.stringify(PAGE_NUMBERS_GLOBAL)}] = numbers;
      else delete window[${JSON.stringify(PAGE_NUMBERS_GLOBAL)}];
      // The screen is the runtime's to hide once the new document is laid out (it shows it
      // again for any change or frame while the render settles); an older runtime ignores this.
      // The document's screen height, which tells the print whether to stream (print-pdf.ts),
      // is read while it is laid out: as the runtime hides it, or after the render if shown.
      // Chromium's layout metrics would see only the window once its contents are skipped.
      let contentHeight = 0;
      const measure = () => (contentHeight = document.documentElement.scrollHeight);
      const outcome = await api.render(props, {
        screen: (shown) => {
          if (!shown) measure();
          skipped.disabled = shown;
        },
      });
      if (outcome.ok && skipped.disabled) measure();
      if (outcome.ok) outcome.contentHeight = contentHeight;
      // The print's page size, when the request decides it alone: imposed now, not in another call.
      if (outcome.ok && pageSize) impose(${JSON.stringify(PAGE_SIZE_STYLE_ID)}, pageSize.css, pageSize.first);
      // Last: nothing of the template runs between this and the print.
      // Shown when the template waits on frames, whatever the runtime left.
      if (outcome.ok && typeof api.framesWanted === 'function') skipped.disabled = api.framesWanted();
      if (outcome.ok) outcome.pageRefs = pageRefs();
      if (outcome.ok && rowsFrom) grouped = groupRows(rowsFrom);
      // The finishing steps' facts read from the DOM now, which the print leaves as it is: no call after the print.
      if (outcome.ok && facts) outcome.facts = readFacts(facts.headings, facts.pdfua);
      return outcome;
    },
  };
})()`;

export interface TemplatePage {
  page: Page;
  cdp: CDPSession;
  artifact: Artifact;
  /** The page helper (`window.__imprintPool`) as a remote object of `cdp`: what each render calls. */
  helper: string;
}

/**
 * A render is one Runtime.callFunctionOn on the helper, straight over the page's session:
 * page.evaluate would find the execution context, capture a stack for its source URL and
 * stringify the function on every call, and asks for a user gesture, which Chromium reports
 * to the browser process each time (nothing a template does needs one). The declaration is the
 * same text every time, so V8 compiles it once. Measured alone with the invoice's props, 4 x 400
 * calls: 0.15-0.30 ms of Node and 0.38-0.55 of Chromium a call, against 0.26-0.38 and 0.57-0.82.
 */
const CALL_RENDER = 'function (props, pageSize, numbers, facts, rowsFrom) { return this.render(props, pageSize, numbers, facts, rowsFrom); }';

/** Responses are built from the artifact once, however many pages load it. */
const responsesByArtifact = new WeakMap<Artifact, ReturnType<typeof templateResponses>>();
const responsesFor = (artifact: Artifact) => {
  let responses = responsesByArtifact.get(artifact);
  if (!responses) responsesByArtifact.set(artifact, (responses = templateResponses(artifact)));
  return responses;
};

export async function openTemplatePage(page: Page, artifact: Artifact, timeoutMs: number, mayLeave?: TemplateNetwork): Promise<TemplatePage> {
  const loadErrors: Error[] = [];
  const onError = (error: unknown) => loadErrors.push(error as Error);
  page.on('pageerror', onError);
  // Before the template's script runs: a template that calls window.print() or alert() must not take the page from the print.
  await disarmPageScripts(page, { now: false });
  await page.setRequestInterception(true);
  page.on('request', routeTemplateRequest(responsesFor(artifact), mayLeave));
  try {
    await page.goto(`${TEMPLATE_ORIGIN}/`, { waitUntil: 'load', timeout: timeoutMs });
  } catch (error) {
    if (!page.browser().connected) throw error; // a crash: the pool reports it as such
    throw new ImprintError('RENDER_FAILED', `The page for ${artifact.sourceName} failed to load: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  page.off('pageerror', onError);

  const ready = await page.evaluate(() => typeof window.__imprint?.render === 'function');
  if (!ready) {
    const first = loadErrors[0];
    const where = locateInTemplate(first?.stack, artifact);
    throw new ImprintError(
      'RENDER_FAILED',
      `The template ${artifact.sourceName} failed to load in the page: ${first?.message ?? 'its script did not start'}${where ? ` (at ${formatPosition(where)})` : ''}`,
      { details: first && templateStackDetails({ message: first.message, stack: first.stack }, artifact) },
    );
  }
  await page.evaluate(PAGE_HELPER);
  const cdp = await page.createCDPSession();
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window.__imprintPool' });
  if (!result.objectId) throw new ImprintError('RENDER_FAILED', `The page helper for ${artifact.sourceName} did not install.`);
  return { page, cdp, artifact, helper: result.objectId };
}

function templateError(artifact: Artifact, outcome: { reason: string; error?: PageRenderError }): ImprintError {
  if (outcome.reason === 'no-props') {
    return new ImprintError('INVALID_INPUT', `No props were given and ${artifact.sourceName} has no PreviewProps. Pass props with --props <file.json>.`);
  }
  if (outcome.reason === 'props-not-object') {
    return new ImprintError('INVALID_INPUT', 'Props must be a JSON object, e.g. {"customer": "ACME"}.');
  }
  const where = locateInTemplate(outcome.error?.stack, artifact);
  const at = where ? ` (at ${formatPosition(where)})` : '';
  // Both stacks at the author's lines; the page's own (minified) frames never reach the message.
  return new ImprintError('RENDER_FAILED', `The template ${artifact.sourceName} threw while rendering: ${outcome.error?.message ?? 'unknown error'}${at}`, {
    details: templateStackDetails(outcome.error, artifact),
  });
}

/** A page kept something of the first print: the next one, which must render on the same page, cannot. */
function keptPageError(artifact: Artifact): ImprintError {
  return new ImprintError(
    'RENDER_FAILED',
    `The template ${artifact.sourceName} changed the page outside its root (nodes added to <body>, attributes of <html> or <body>) while rendering: ` +
      'its page numbers need a second render on the same page. Leave <html> and <body> alone (use React state, or a useEffect that undoes what it does).',
  );
}

/** The template's e-invoice model for these props, judged by `check` before any render; nothing is rendered or printed. */
export async function einvoiceOnTemplatePage<Invoice>(target: TemplatePage, props: unknown, check: EInvoiceCheck<Invoice>): Promise<CheckedEInvoice<Invoice>> {
  const outcome = await target.page.evaluate((p) => (window.__imprint.einvoice ? window.__imprint.einvoice(p) : ({ ok: false, reason: 'no-einvoice' } as const)), props as object);
  if (!outcome.ok) {
    if (outcome.reason === 'no-einvoice') {
      throw new ImprintError(
        'INVALID_INPUT',
        `${target.artifact.sourceName} has no e-invoice mapping: give its component an \`einvoice\` static, a function from its props to an EInvoice (import type { EInvoice } from 'imprint/einvoice'; see ${guideUrl('einvoice')}). A template published before this version of imprint must be published again.`,
      );
    }
    throw templateError(target.artifact, outcome);
  }
  return { einvoice: await check(outcome.model), usedPreviewProps: outcome.usedPreviewProps };
}

async function callRender(
  target: TemplatePage,
  props: unknown,
  pageSize: { css: string; first: boolean } | null,
  numbers: PageNumbers | null,
  facts: FactsWanted | undefined,
  rowsFrom: number | null,
): Promise<HelperOutcome> {
  const { result, exceptionDetails } = await target.cdp.send('Runtime.callFunctionOn', {
    objectId: target.helper,
    functionDeclaration: CALL_RENDER,
    arguments: [{ value: props }, { value: pageSize }, { value: numbers }, { value: facts ?? null }, { value: rowsFrom }],
    returnByValue: true,
    awaitPromise: true,
  });
  // The helper catches nothing a template throws (the runtime reports those); this is the helper's own failure.
  if (exceptionDetails) throw new Error(`The page helper failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as HelperOutcome;
}

/** Looks at the rendered page before it is printed (`imprint check --a11y` runs axe-core here); given the template's resolved `metadata`. */
export type BeforePrint = (page: Page, metadata: unknown) => Promise<void>;

/**
 * `dirty`: the page kept something of an earlier render; nothing was rendered, use a fresh page.
 * `checkEInvoice`: the template's e-invoice is checked first, and returned with the PDF.
 * `spool`: when the print goes to a file (spool/spool-policy.ts); without one it is a Buffer.
 */
export async function renderOnTemplatePage<Invoice = never>(
  target: TemplatePage,
  props: unknown,
  request: PrintRequest,
  checkEInvoice?: EInvoiceCheck<Invoice>,
  beforePrint?: BeforePrint,
): Promise<RenderedDocument<Invoice, Buffer> | 'dirty'>;
export async function renderOnTemplatePage<Invoice = never>(
  target: TemplatePage,
  props: unknown,
  request: PrintRequest,
  checkEInvoice: EInvoiceCheck<Invoice> | undefined,
  beforePrint: BeforePrint | undefined,
  spool: SpoolPolicy | undefined,
): Promise<RenderedDocument<Invoice> | 'dirty'>;
export async function renderOnTemplatePage<Invoice = never>(
  target: TemplatePage,
  props: unknown,
  request: PrintRequest,
  checkEInvoice?: EInvoiceCheck<Invoice>,
  beforePrint?: BeforePrint,
  spool?: SpoolPolicy,
): Promise<RenderedDocument<Invoice> | 'dirty'> {
  const invoice = checkEInvoice ? await einvoiceOnTemplatePage(target, props, checkEInvoice) : undefined;
  const planned = plannedPageSetup(request);
  const pageSize = planned ? { css: pageSizeCss(planned), first: planned.preferCssPageSize } : null;
  const wanted = factsWanted(request);
  // A tagged print groups flat rows first (flat-rows.ts).
  const rowsFrom = printAccessibility(request).tagged ? FLAT_ROW_SIBLINGS : null;
  const outcome = await callRender(target, props, pageSize, null, wanted, rowsFrom);
  if (!outcome.ok) {
    if (outcome.reason === 'dirty') return 'dirty';
    throw templateError(target.artifact, outcome);
  }
  await beforePrint?.(target.page, outcome.metadata);
  const first: PrintedPass = { ...(await printPage(target.page, target.cdp, request, planned, { facts: outcome.facts, contentHeight: outcome.contentHeight }, spool)), refs: outcome.pageRefs, fields: outcome.fields };
  // Page numbers to fill in: the same props rendered again on this page, with the pages found.
  const again = async (numbers: PageNumbers): Promise<PrintedPass> => {
    const next = await callRender(target, props, pageSize, numbers, wanted, rowsFrom);
    if (!next.ok) {
      if (next.reason === 'dirty') throw keptPageError(target.artifact);
      throw templateError(target.artifact, next);
    }
    return { ...(await printPage(target.page, target.cdp, request, planned, { facts: next.facts, contentHeight: next.contentHeight }, spool)), refs: next.pageRefs, fields: next.fields };
  };
  const { pdf, facts, fields, tagged } = first.refs ? await settlePageNumbers({ ...first, refs: first.refs }, again, target.artifact.sourceName) : first;
  return { pdf, usedPreviewProps: outcome.usedPreviewProps, metadata: outcome.metadata, fields, stamp: outcome.stamp, einvoice: invoice?.einvoice, facts, tagged };
}
