/**
 * The one place that calls Chromium's print, straight over the page's CDP session: one round
 * trip returning the bytes (Puppeteer's page.pdf adds a font wait we already did, a stream
 * and reads of it). Backgrounds printed, no margins, untagged by default (tagging costs ~40%
 * time and 4x bytes).
 *
 * Page size: when the request names one, it is imposed with an `@page { size: ... !important }`
 * rule in a style element kept last in the page's head. Chromium's paper-size options alone do
 * not do it: a template that declares its own `@page size` keeps that orientation whatever the
 * paper says, and even `@page :first` rules win. The injected rule beats all of them. It lives
 * in one element, replaced on every render, so a warm page never keeps a previous render's size.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import type { PageSetup } from '../page-size.js';
import { markRender } from './render-timing.js';

export const PAGE_SIZE_STYLE_ID = '__imprint-page-size';

const inches = (points: number) => points / 72;

/** The CSS that imposes the requested size, or undefined when the page's own CSS decides. */
export function pageSizeCss(setup: PageSetup): string | undefined {
  if (setup.preferCssPageSize) return undefined;
  return `@page { size: ${setup.size.widthPt.toFixed(3)}pt ${setup.size.heightPt.toFixed(3)}pt !important; }`;
}

/** For pages without the pool's page helper (generate's web pages). */
export async function imposePageSize(page: Page, css: string): Promise<void> {
  await page.evaluate(
    (id, text) => {
      const style = document.getElementById(id) ?? Object.assign(document.createElement('style'), { id });
      style.textContent = text;
      (document.head ?? document.documentElement).appendChild(style);
    },
    PAGE_SIZE_STYLE_ID,
    css,
  );
}

export async function printPdf(cdp: CDPSession, setup: PageSetup, tagged = false): Promise<Buffer> {
  markRender('print-start');
  const { data } = await cdp.send('Page.printToPDF', {
    // The paper for pages whose CSS names no size.
    paperWidth: inches(setup.size.widthPt),
    paperHeight: inches(setup.size.heightPt),
    preferCSSPageSize: true,
    printBackground: true,
    marginTop: 0,
    marginBottom: 0,
    marginLeft: 0,
    marginRight: 0,
    generateTaggedPDF: tagged,
    generateDocumentOutline: false,
  });
  markRender('print-end');
  return Buffer.from(data, 'base64');
}
