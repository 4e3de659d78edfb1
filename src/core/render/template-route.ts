/**
 * Answers the page's requests for a template render from memory: the shell document, the
 * artifact's script and style, and its static files. Anything else is refused: a published
 * template renders with no network and no disk, unless the operator allow-listed hosts.
 */
import type { HTTPRequest } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import type { TemplateNetwork } from '../net/template-network.js';
import { ARTIFACT_SCRIPT_PATH, ARTIFACT_STYLE_PATH, TEMPLATE_ORIGIN } from '../../runtime/page-protocol.js';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page a template renders in. Its <title> becomes the PDF's Title (a template may set
 * its own with React's <title>); without one Chromium would use the fake origin's host name.
 */
export const shellHtml = (title: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${ARTIFACT_STYLE_PATH}"></head><body><div id="root"></div><script src="${ARTIFACT_SCRIPT_PATH}"></script></body></html>`;

type Reply = { contentType: string; body: string | Buffer };

export function templateResponses(artifact: Artifact): (pathname: string) => Reply | undefined {
  const fixed: Record<string, Reply> = {
    '/': { contentType: 'text/html; charset=utf-8', body: shellHtml(artifact.sourceName.replace(/\.[^.]+$/, '')) },
    [ARTIFACT_SCRIPT_PATH]: { contentType: 'text/javascript; charset=utf-8', body: artifact.js },
    [ARTIFACT_STYLE_PATH]: { contentType: 'text/css; charset=utf-8', body: artifact.css },
  };
  return (pathname) => {
    if (fixed[pathname]) return fixed[pathname];
    const asset = artifact.assets[pathname];
    return asset ? { contentType: asset.contentType, body: Buffer.from(asset.base64, 'base64') } : undefined;
  };
}

/** `mayLeave`: requests the operator lets templates send (their allow-list); none by default. */
export function routeTemplateRequest(respond: ReturnType<typeof templateResponses>, mayLeave?: TemplateNetwork) {
  return (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const url = new URL(request.url());
    if (url.origin !== TEMPLATE_ORIGIN) {
      void (mayLeave?.(url) ? request.continue() : request.abort('blockedbyclient'));
      return;
    }
    const reply = respond(url.pathname);
    void (reply
      ? request.respond({ status: 200, contentType: reply.contentType, body: reply.body })
      : request.respond({ status: 404, contentType: 'text/plain', body: 'not in the template artifact' }));
  };
}
