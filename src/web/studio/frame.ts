/**
 * The script of the studio's HTML view, an iframe holding the template's own artifact (the
 * same bundle and page runtime the print uses). The studio calls `window.__studio.render`
 * with the props; the runtime renders the template, then Paged.js lays the result out in
 * page boxes with their margin boxes (header, footer, page numbers), which Chromium's
 * screen view cannot show. The last good pages stay until a render succeeds.
 */
import type { ImprintPageApi, PageRenderOutcome } from '../../runtime/page-protocol.js';

interface PagedPreviewer {
  preview(content: DocumentFragment, stylesheets: (string | Record<string, string>)[], renderTo: HTMLElement): Promise<{ total: number }>;
}
declare const Paged: { Previewer: new () => PagedPreviewer };

export interface FrameRenderResult {
  ok: boolean;
  pages: number;
  ms: number;
  outcome: PageRenderOutcome;
}

declare global {
  interface Window {
    __imprint: ImprintPageApi;
    __studio: { render(props: unknown): Promise<FrameRenderResult>; previewProps(): unknown };
  }
}

const root = document.getElementById('root')!;
const pages = document.getElementById('pages')!;
const CSS_URL = (document.querySelector('link[data-artifact]') as HTMLLinkElement).href;

/** One render at a time: a later call waits for the one under way (React and Paged.js own the DOM meanwhile). */
let chain: Promise<unknown> = Promise.resolve();

async function renderNow(props: unknown): Promise<FrameRenderResult> {
  const started = performance.now();
  const outcome = await window.__imprint.render(props);
  if (!outcome.ok) return { ok: false, pages: pages.querySelectorAll('.pagedjs_page').length, ms: performance.now() - started, outcome };
  // The template's own <style> elements (Document, Header, Footer emit @page rules) go to Paged.js as stylesheets.
  const styles = Array.from(root.querySelectorAll('style')).map((style) => ({ [location.href]: style.textContent ?? '' }));
  const content = document.createDocumentFragment();
  for (const node of Array.from(root.childNodes)) content.appendChild(node.cloneNode(true));
  for (const style of Array.from(content.querySelectorAll('style'))) style.remove();
  const target = document.createElement('div');
  target.className = 'pages-next';
  document.body.appendChild(target);
  // Styles Paged.js inserted for the previous layout would mix with this one's.
  const previous = Array.from(document.head.querySelectorAll('style[data-pagedjs-inserted-styles]'));
  const flow = await new Paged.Previewer().preview(content, [CSS_URL, ...styles], target);
  for (const style of previous) style.remove();
  pages.replaceChildren(...Array.from(target.childNodes));
  target.remove();
  return { ok: true, pages: flow.total, ms: performance.now() - started, outcome };
}

window.__studio = {
  render(props) {
    const next = chain.then(() => renderNow(props));
    chain = next.catch(() => undefined);
    return next;
  },
  previewProps: () => window.__imprint.inspect?.().previewProps,
};
