/**
 * Which URLs a page being rendered may load at all, by scheme, for the render layer's request
 * interception. Network schemes are let through to the egress proxy, which judges the
 * destination; schemes that read local state (file:, chrome:, view-source:, filesystem:...)
 * never load; content that is already in the page (data:, blob:, about:srcdoc) may fill
 * sub-resources and frames, but not replace the top-level document, which must stay the
 * document that was asked for.
 */
export type PageRequestVerdict =
  | { action: 'network' } // http(s), ws(s): the proxy decides
  | { action: 'local' } // no network involved
  | { action: 'deny'; reason: string };

export interface PageRequest {
  url: string;
  /** The request loads the top-level document (a navigation of the main frame). */
  isMainFrameNavigation: boolean;
}

const NETWORK = new Set(['http:', 'https:', 'ws:', 'wss:']);
const IN_PAGE = new Set(['data:', 'blob:']);
const ABOUT_PAGES = new Set(['about:blank', 'about:srcdoc']);

export function pageRequestVerdict(request: PageRequest): PageRequestVerdict {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { action: 'deny', reason: 'not a URL' };
  }
  if (NETWORK.has(url.protocol)) return { action: 'network' };
  if (url.protocol === 'about:') {
    return ABOUT_PAGES.has(`about:${url.pathname}`) ? { action: 'local' } : { action: 'deny', reason: `${url.href} is not a blank page` };
  }
  if (IN_PAGE.has(url.protocol)) {
    return request.isMainFrameNavigation ? { action: 'deny', reason: `${url.protocol} cannot replace the top-level document` } : { action: 'local' };
  }
  return { action: 'deny', reason: `the ${url.protocol} scheme is never loaded by a render` };
}
