/**
 * Every answer of the service carries a Content-Security-Policy without inline script: the
 * dashboard's pages may load only the service's own fingerprinted scripts and styles (no
 * inline <script>, no eval, nothing from another host), and every other answer (JSON, PDFs)
 * none at all. No page of the service may be framed by another site.
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

/** JSON, PDFs and downloads: nothing to run, nothing to frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) {
      const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      void reply.header('content-security-policy', html ? DASHBOARD_CSP : API_CSP);
    }
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    return payload;
  });
}
