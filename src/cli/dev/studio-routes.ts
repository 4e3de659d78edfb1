/**
 * The studio's routes on the dev server: its page and front-end, the HTML view's frame (the
 * template's artifact served as a print serves it), and a small JSON API: the templates, one's
 * schema and fixtures, a props check with `render`'s path messages, a source location for an
 * error thrown in the frame, "save as fixture", and a print of the PDF with the studio's props.
 */
import type http from 'node:http';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { locateTemplate } from '../../core/bundle/find-project.js';
import { describeError, diagnosticProblems } from '../../core/check/check-template.js';
import { renderDiagnosed } from '../../core/check/render-diagnosed.js';
import { ImprintError, isImprintError } from '../../core/errors.js';
import { installedWebAssets } from '../../core/web-assets.js';
import { locateInTemplate } from '../../core/render/template-stack.js';
import { ARTIFACT_SCRIPT_PATH, TEMPLATE_ORIGIN } from '../../runtime/page-protocol.js';
import type { PreviewDeps } from './build-preview.js';
import type { TemplateEntry } from './dev-session.js';
import { locateError } from './error-location.js';
import { listFixtures, readFixture, saveFixture } from './props-fixtures.js';
import { PREVIEW_FRAME_CSP, RUN_ID, previewFramePage, studioPage } from './studio-page.js';
import { propsErrors } from '../../core/schema/validate-props.js';
import type { DerivedSchema } from '../../core/schema/derive-props-schema.js';
import type { TemplateState } from './template-state.js';

export interface StudioOptions {
  root: string;
  templates: () => TemplateEntry[];
  find: (name: string) => TemplateEntry | undefined;
  state: (entry: TemplateEntry) => TemplateState;
  /** The props schema of the template's last build: kept with it, derived again only after a new build. */
  schemaOf: (entry: TemplateEntry) => DerivedSchema;
  deps: PreviewDeps;
}

type Send = (status: number, type: string, body: string | Buffer, headers?: Record<string, string>) => void;

const MAX_BODY = 5 * 1024 * 1024;
/** For an answer whose URL always means the same bytes. */
const KEEP = { 'cache-control': 'private, max-age=86400, immutable' };

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ImprintError('PAYLOAD_TOO_LARGE', 'The request body is over 5 MB.');
    chunks.push(chunk as Buffer);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // answered below
  }
  throw new ImprintError('INVALID_INPUT', 'The request body must be a JSON object.');
}

export function createStudioRoutes(options: StudioOptions) {
  const { schemaOf } = options;
  // One print at a time: a print is seconds of the browser's time, and the machine is the author's.
  let printing: Promise<unknown> = Promise.resolve();
  const assets = installedWebAssets();

  const needArtifact = (entry: TemplateEntry) => {
    if (!entry.artifact) throw new ImprintError('NOT_FOUND', `${entry.name} has not built yet: see its error.`);
    return entry.artifact;
  };

  async function api(entry: TemplateEntry, action: string, request: http.IncomingMessage, url: URL): Promise<unknown> {
    if (request.method === 'GET' && action === 'details') {
      const schema = schemaOf(entry);
      return { schema: schema.kind === 'schema' ? schema.schema : undefined, schemaNote: schema.kind === 'none' ? schema.reason : undefined, fixtures: listFixtures(entry.file) };
    }
    if (request.method === 'GET' && action === 'fixture') return readFixture(entry.file, url.searchParams.get('file') ?? '');
    if (request.method !== 'POST') throw new ImprintError('ROUTE_NOT_FOUND', `No ${request.method} ${url.pathname} here.`);
    const body = await readJson(request);
    if (action === 'validate') {
      const schema = schemaOf(entry);
      return { errors: schema.kind === 'schema' ? propsErrors(schema.schema, body.props) : [] };
    }
    if (action === 'locate') {
      // The frame's stack names the artifact at this server's URL; the source map knows it at the template origin.
      const stack = typeof body.stack === 'string' ? body.stack.replace(/https?:\/\/[^/\s]+\/preview\/[^/\s]+\/artifact\.js(\?[^:\s]*)?/g, `${TEMPLATE_ORIGIN}${ARTIFACT_SCRIPT_PATH}`) : undefined;
      const where = locateInTemplate(stack, needArtifact(entry));
      return { at: where ? locateError(`${where.file}:${where.line}:${where.column}`, [path.dirname(entry.file), projectDirOf(entry)]) : undefined };
    }
    if (action === 'fixtures') return saveFixture(entry.file, String(body.label ?? ''), body.props);
    throw new ImprintError('ROUTE_NOT_FOUND', `No POST ${url.pathname} here.`);
  }

  async function print(entry: TemplateEntry, request: http.IncomingMessage, send: Send) {
    const body = await readJson(request);
    const artifact = needArtifact(entry);
    const run = printing.then(async () => {
      const browser = await options.deps.browser();
      return renderDiagnosed(browser, artifact, body.props, {}, options.deps.timeoutMs);
    });
    printing = run.catch(() => undefined);
    try {
      const rendered = await run;
      const pages = (await PDFDocument.load(rendered.pdf, { updateMetadata: false })).getPageCount();
      // What went wrong without stopping the print (a font or image that failed), as `imprint check` lists it.
      const problems = encodeURIComponent(JSON.stringify(diagnosticProblems(rendered.diagnostics)));
      send(200, 'application/pdf', rendered.pdf, { 'x-page-count': String(pages), 'x-problems': problems });
    } catch (error) {
      send(422, 'application/json', JSON.stringify({ error: describeError(error) }));
    }
  }

  /** True when the request was the studio's; false leaves it to the other routes. */
  return async function handle(request: http.IncomingMessage, url: URL, send: Send): Promise<boolean> {
    const { pathname } = url;
    if (pathname === '/' && request.method === 'GET') {
      send(200, 'text/html; charset=utf-8', studioPage(assets));
      return true;
    }
    // What a URL of this run names never changes while it runs (a new version has a new URL).
    const keep: Record<string, string> = url.searchParams.get('run') === RUN_ID ? KEEP : {};
    const asset = /^\/studio\/([\w.-]+)$/.exec(pathname);
    if (asset) {
      // Named by their bytes: a name always means the same file.
      const file = assets.file(asset[1]);
      if (file) send(200, file.type, file.body, KEEP);
      else send(404, 'text/plain', 'No such studio file.');
      return true;
    }
    if (pathname === '/api/templates') {
      send(200, 'application/json', JSON.stringify(options.templates().map(options.state)));
      return true;
    }
    const apiMatch = /^\/api\/t\/([^/]+)\/([a-z]+)$/.exec(pathname);
    if (apiMatch) {
      const entry = options.find(decodeURIComponent(apiMatch[1]));
      if (!entry) {
        send(404, 'application/json', JSON.stringify({ error: `No template ${decodeURIComponent(apiMatch[1])} here.` }));
        return true;
      }
      if (apiMatch[2] === 'print' && request.method === 'POST') {
        await print(entry, request, send);
        return true;
      }
      try {
        send(200, 'application/json', JSON.stringify((await api(entry, apiMatch[2], request, url)) ?? null));
      } catch (error) {
        if (!isImprintError(error)) throw error;
        send(error.httpStatus, 'application/json', JSON.stringify({ error: error.message, code: error.code }));
      }
      return true;
    }
    const frame = /^\/preview\/([^/]+)\/(artifact\.js|artifact\.css)?$/.exec(pathname);
    if (frame) {
      const entry = options.find(decodeURIComponent(frame[1]));
      if (!entry?.artifact) {
        send(404, 'text/plain', 'This template has not built yet.');
        return true;
      }
      const headers = { 'content-security-policy': PREVIEW_FRAME_CSP };
      // The artifact's URL names its version, but it is served the latest: only that one may be kept.
      const artifactKeep = Number(url.searchParams.get('v')) === entry.artifactVersion ? { ...headers, ...keep } : headers;
      if (!frame[2]) send(200, 'text/html; charset=utf-8', previewFramePage(entry.name, entry.artifactVersion, assets), headers);
      else if (frame[2] === 'artifact.js') send(200, 'text/javascript; charset=utf-8', entry.artifact.js, artifactKeep);
      else send(200, 'text/css; charset=utf-8', entry.artifact.css, artifactKeep);
      return true;
    }
    if (pathname.startsWith('/static/')) {
      // The artifact asks for /static/... at the root, as on the print's origin: the frame that asked names the template.
      const from = /\/preview\/([^/]+)\//.exec(request.headers.referer ?? '');
      const entry = from ? options.find(decodeURIComponent(from[1])) : undefined;
      const file = entry?.artifact?.assets[pathname];
      if (file) send(200, file.contentType, Buffer.from(file.base64, 'base64'));
      else send(404, 'text/plain', `${pathname} is not in the template's static folder.`);
      return true;
    }
    return false;
  };
}

const projectDirOf = (entry: TemplateEntry) => locateTemplate(entry.file).projectDir;
