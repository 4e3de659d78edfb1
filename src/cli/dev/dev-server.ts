/**
 * The preview server, on 127.0.0.1 only: it serves the author's unpublished work to their
 * own browser. Routes: / (the studio, see studio-routes.ts, with its /studio/, /api/,
 * /preview/ and /static/ routes), /list (the plain list), /t/<name> (a template's PDF page),
 * /t/<name>/state (its JSON), /t/<name>/pdf (its last rendered PDF; ?download=1 as a file),
 * /events (server-sent events: every template's state as a `list` event when the stream opens,
 * then a template's state after each change).
 *
 * Only requests to this server by its own name are answered, and writes only from its own
 * pages: another site open in the same browser must not read or change the author's files
 * (a cross-site form post, or a DNS name rebound to 127.0.0.1).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DerivedSchema } from '../../core/schema/derive-props-schema.js';
import type { PreviewDeps } from './build-preview.js';
import type { TemplateEntry } from './dev-session.js';
import { indexPage, previewPage } from './pages.js';
import { createStudioRoutes } from './studio-routes.js';
import { templateState } from './template-state.js';

export interface DevServerOptions {
  port: number;
  root: string;
  templates: () => TemplateEntry[];
  find: (name: string) => TemplateEntry | undefined;
  /** The props schema of a template's last build, which the studio's form and props check use. */
  schemaOf: (entry: TemplateEntry) => DerivedSchema;
  /** The browser the studio prints with. */
  deps: PreviewDeps;
}

export interface DevServer {
  url: string;
  /** Tells every open page about a template's new state. */
  publish(entry: TemplateEntry): void;
  /** Tells the studio a template left (its file was deleted); an event of its own, which the plain pages do not follow. */
  removed(name: string): void;
  close(): Promise<void>;
}

function send(response: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  response.end(body);
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const listeners = new Set<http.ServerResponse>();
  const state = (entry: TemplateEntry) => templateState(entry, options.root);

  let port = 0;
  const studio = createStudioRoutes({ ...options, state });
  const ownHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!ownHosts().includes(request.headers.host ?? '')) return send(response, 403, 'text/plain', `Open this preview at http://127.0.0.1:${port}/.`);
    if (request.method !== 'GET') {
      const origin = request.headers.origin;
      if (request.method !== 'POST' || !origin || !ownHosts().some((host) => origin === `http://${host}`)) {
        return send(response, 403, 'text/plain', 'Only the studio page of this server may send changes.');
      }
    }
    studio(request, url, (status, type, body, headers) => send(response, status, type, body, headers))
      .then((handled) => {
        if (!handled) classic(request, response, url);
      })
      .catch((error: unknown) => {
        // A bug of ours: the page hears of it, and so does the terminal.
        process.stderr.write(`imprint dev: ${(error as Error).stack ?? String(error)}\n`);
        if (!response.headersSent) send(response, 500, 'text/plain', `imprint dev failed: ${(error as Error).message}`);
        else response.end();
      });
  });

  function classic(request: http.IncomingMessage, response: http.ServerResponse, url: URL) {
    if (request.method !== 'GET') return send(response, 405, 'text/plain', 'Only GET is served here.');
    if (url.pathname === '/list') return send(response, 200, 'text/html; charset=utf-8', indexPage(options.templates().map(state)));
    if (url.pathname === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      // Every template's state as the stream starts, then each change in order: a page that
      // fetched its state before subscribing would miss a build finished in between, and wait
      // for an event already sent (the studio opened on a template still building).
      response.write(`event: list\ndata: ${JSON.stringify(options.templates().map(state))}\n\n`);
      listeners.add(response);
      request.on('close', () => listeners.delete(response));
      return;
    }
    const match = /^\/t\/([^/]+)(\/state|\/pdf)?$/.exec(url.pathname);
    const entry = match ? options.find(decodeURIComponent(match[1])) : undefined;
    if (!match || !entry) return send(response, 404, 'text/plain', 'No such template here. The studio is at /, the plain list at /list.');
    if (!match[2]) return send(response, 200, 'text/html; charset=utf-8', previewPage(state(entry)));
    if (match[2] === '/state') return send(response, 200, 'application/json', JSON.stringify(state(entry)));
    if (!entry.lastPdf) return send(response, 404, 'text/plain', `${entry.name} has not rendered yet: see its page for the error.`);
    const headers: Record<string, string> = {};
    if (url.searchParams.has('download')) headers['content-disposition'] = `attachment; filename="${entry.name.replace(/"/g, '')}.pdf"`;
    return send(response, 200, 'application/pdf', entry.lastPdf.pdf, headers);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  ({ port } = server.address() as AddressInfo);

  return {
    url: `http://127.0.0.1:${port}/`,
    publish(entry) {
      const message = `data: ${JSON.stringify(state(entry))}\n\n`;
      for (const listener of listeners) listener.write(message);
    },
    removed(name) {
      const message = `event: removed\ndata: ${JSON.stringify({ name })}\n\n`;
      for (const listener of listeners) listener.write(message);
    },
    async close() {
      for (const listener of listeners) listener.end();
      listeners.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // keep-alive connections would hold close() open
      await closed;
    },
  };
}
