/**
 * Every answer of the service carries a Content-Security-Policy without inline script: the
 * dashboard's pages may load only the service's own fingerprinted scripts and styles (no
 * inline <script>, no eval, nothing from another host); JSON answers allow nothing at all, and
 * documents (PDFs, zips) no script.
 */
import type { FastifyInstance } from 'fastify';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // pdf.js draws the try-it PDF with a worker of our own and fonts it makes from the PDF's bytes.
  "worker-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** JSON answers: nothing to run, nothing to frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * PDFs and zips (renders, downloads): no script, but nothing more. Chrome shows a PDF in a page
 * of its own making, with inline styles and an <embed> that `default-src 'none'` would block
 * (crbug.com/271452), and a customer may frame a download URL in their own app.
 */
export const DOCUMENT_CSP = "script-src 'none'";

const policyFor = (contentType: string) =>
  contentType.startsWith('text/html') ? DASHBOARD_CSP : contentType.startsWith('application/pdf') || contentType.startsWith('application/zip') ? DOCUMENT_CSP : API_CSP;

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) void reply.header('content-security-policy', policyFor(String(reply.getHeader('content-type') ?? '')));
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    return payload;
  });
}
