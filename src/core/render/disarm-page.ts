/**
 * What a page's own script can do that no print survives: a dialog (alert, confirm, prompt)
 * waits for a click nobody makes, until the render times out; window.print() takes the page
 * from our printer ("Page is already being printed": Chromium fires `beforeprint` and never
 * ends that print) and window.close() closes it. Dialogs are dismissed as they open, and print
 * and close do nothing, in the page as it stands and in every document it navigates to. Both
 * kinds of page use it: raw HTML and web pages (render-html.ts), and template pages
 * (template-page.ts), whose template may call window.print() from a button's handler or an
 * effect.
 */
import type { Page } from 'puppeteer-core';

/** What `disarm` below touches of the page's window: it runs in the page (this file is Node code: no DOM). */
declare const window: { print(): void; close(): void };

/** `now`: the document the page holds already too (raw HTML is written into it); a page about to navigate needs only the next ones. */
export async function disarmPageScripts(page: Page, { now = true } = {}): Promise<void> {
  // A dismissal can only fail when the page is already gone, which the render reports itself.
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  const disarm = () => {
    window.print = () => undefined;
    window.close = () => undefined;
  };
  await page.evaluateOnNewDocument(disarm);
  if (now) await page.evaluate(disarm);
}
