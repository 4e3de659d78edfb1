/**
 * Every error answer of the service, in its shape: status, `{ error, code }`, the code from
 * docs/api.md's catalogue, the headers that go with it. The app is the real one (createApp,
 * its routes, hooks, schemas and error handler, a real SQLite store) with a fake engine that
 * fails on demand with the core's own errors, answered through fastify's inject: no browser,
 * no socket, milliseconds. What a real render's failures look like end to end is in
 * test/contract/** (real Chromium).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import lightMyRequest from 'light-my-request';
import { httpStatusOf, ImprintError, isWireErrorCode, WIRE_ERROR_CODES } from '../../../src/core/errors.js';
import { checkDocumentLimits } from '../../../src/core/limits/document-limits.js';
import { createNetPolicy } from '../../../src/core/net/address-policy.js';
import type { BrowserProvider } from '../../../src/core/render/browser-types.js';
import { openStore, type Store } from '../../../src/core/store/index.js';
import { translateStorageFull } from '../../../src/core/store/storage-full.js';
import { isDatabaseUnreachable, translateUnreachable } from '../../../src/core/store/postgres/unavailable.js';
import { RENDER_OPTION_FIELDS } from '../../../src/core/render-request.js';
import { createApp } from '../../../src/server/app.js';
import type { AppDeps, AppEngine } from '../../../src/server/deps.js';

const REQUEST_BYTES = 4096;

/** What the next render does: throw this (or what the function throws), or answer a stand-in PDF. */
let failure: unknown;
let store: Store;
let dataDir: string;
let logs: string[] = [];
let app: FastifyInstance;
let key: string;
let noLimitKey: string;

/** The engine's face the routes call; each render throws `failure` when set (a function: called, for errors needing the store). */
const fakeEngine: AppEngine = {
  async renderDocument() {
    if (failure !== undefined) throw typeof failure === 'function' ? await failure() : failure;
    return { result: { format: 'pdf', pdf: Buffer.from('%PDF-1.7 stand-in') }, usedPreviewProps: false };
  },
  async generate() {
    if (failure !== undefined) throw typeof failure === 'function' ? await failure() : failure;
    return { format: 'pdf', pdf: Buffer.from('%PDF-1.7 stand-in') };
  },
  publish: () => assert.fail('publish is not used here'),
  list: async () => [],
};

/** /healthz's browser: always ready (its own failures are the contract tests'). */
const readyBrowser = { browser: async () => ({ connected: true }), close: async () => {} } as unknown as BrowserProvider;

function deps(): AppDeps {
  return {
    store,
    engine: fakeEngine,
    browsers: readyBrowser,
    limits: { requestBytes: REQUEST_BYTES, artifactBytes: 2 * REQUEST_BYTES },
    netPolicy: createNetPolicy(),
    // No name is looked up: a url whose name resolves to nothing is refused like a private one.
    resolve: async () => [],
    now: () => new Date(),
    version: 'test',
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk, _encoding, done) {
          logs.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      }),
    },
  };
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-server-errors-'));
  store = openStore({ dataDir });
  await store.createTeam('acme', 0);
  key = (await store.createApiKey('acme')).key;
  await store.createTeam('free', 1_000_000);
  noLimitKey = (await store.createApiKey('free')).key;
  app = await createApp(deps());
});

after(async () => {
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  failure = undefined;
  logs = [];
});

type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'json'>;

/** The answer is an error object with exactly A5's `error`, its `code` (the one the status stands for) and the request's id. */
function expectError(answer: Answer, status: number, code: string, pattern?: RegExp): string {
  assert.equal(answer.statusCode, status, answer.body);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = answer.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], answer.body);
  assert.equal(body.requestId, answer.headers['x-request-id'], 'the body names the id the header carries');
  assert.equal(typeof body.error, 'string');
  assert.equal(body.code, code, answer.body);
  assert.ok(isWireErrorCode(body.code));
  assert.equal(httpStatusOf(body.code), status, `${code} is catalogued with status ${status}`);
  assert.doesNotMatch(body.error, /\n\s+at /, 'no stack trace');
  if (pattern) assert.match(body.error, pattern);
  return body.error;
}

const generate = (body: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/generate', headers: { authorization: `Bearer ${noLimitKey}`, ...headers }, payload: body as string });

describe('401: every refusal of a key, with WWW-Authenticate: Bearer', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no key', {}, /^Missing API key/],
    ['a malformed header', { authorization: 'Basic abc' }, /^Malformed Authorization header/],
    ['an unknown key', { authorization: 'Bearer imp_nope' }, /^Unknown or revoked API key/],
  ];
  for (const [name, headers, pattern] of cases) {
    test(name, async () => {
      for (const [method, url] of [['POST', '/api/generate'], ['GET', '/api/templates'], ['GET', '/openapi.json'], ['GET', '/api/nothing']] as const) {
        const answer = await app.inject({ method, url, headers, ...(method === 'POST' ? { payload: { html: 'x' } } : {}) });
        expectError(answer, 401, 'UNAUTHORIZED', pattern);
        assert.equal(answer.headers['www-authenticate'], 'Bearer realm="imprint"', `${method} ${url}`);
      }
    });
  }

  test('logged as a refusal, not as a failure', async () => {
    await app.inject({ method: 'GET', url: '/api/me' });
    assert.ok(logs.some((line) => JSON.parse(line).msg === 'request refused' && JSON.parse(line).code === 'UNAUTHORIZED'), logs.join('\n'));
    assert.ok(!logs.some((line) => JSON.parse(line).level >= 50), 'nothing at error level');
  });
});

describe('400, 413, 415: the body as sent', () => {
  test('400 INVALID_INPUT: not JSON, empty, not an object, a field of the wrong kind, a bad format or size', async () => {
    const json = { 'content-type': 'application/json' };
    expectError(await generate('{"html": ', json), 400, 'INVALID_INPUT', /not valid JSON/);
    expectError(await generate('', json), 400, 'INVALID_INPUT', /body is empty/);
    expectError(await generate('[1]', json), 400, 'INVALID_INPUT', /send a JSON object/);
    // A key that would change what an object inherits, named where it is (Fastify's parser said "not valid JSON").
    expectError(await generate('{"html": "x", "metadata": {"a": [{"__proto__": {"polluted": 1}}]}}', json), 400, 'INVALID_INPUT', /^Invalid metadata\.a\[0\]\.__proto__: a key named "__proto__" is not accepted/);
    expectError(await generate('{"\\u005f_proto__": 1, "html": "x"}', json), 400, 'INVALID_INPUT', /^Invalid body: "__proto__"/);
    expectError(await generate('{"html": "x", "metadata": {"constructor": {"prototype": {}}}}', json), 400, 'INVALID_INPUT', /^Invalid metadata\.constructor: a key named "constructor" holding "prototype"/);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined, 'nothing inherited it');
    expectError(await generate({}), 400, 'INVALID_INPUT', /Nothing to render/);
    expectError(await generate({ html: 5 }), 400, 'INVALID_INPUT', /Invalid html/);
    // The shared parser raises these as the CLI's usage errors; on the wire they are the body's fault.
    expectError(await generate({ html: 'x', format: 'xml' }), 400, 'INVALID_INPUT', /Invalid format "xml"/);
    expectError(await generate({ html: 'x', size: 'A9' }), 400, 'INVALID_INPUT', /Invalid size "A9"/);
    const a1 = await app.inject({ method: 'POST', url: '/api/documents/x', headers: { authorization: `Bearer ${noLimitKey}` }, payload: { props: [] } });
    expectError(a1, 400, 'INVALID_INPUT', /props/);
  });

  test('400 INVALID_INPUT: an url the service never fetches (not http/https)', async () => {
    expectError(await generate({ url: 'file:///etc/passwd' }), 400, 'INVALID_INPUT', /only http and https/);
  });

  test('413 PAYLOAD_TOO_LARGE names the limit', async () => {
    expectError(await generate({ html: 'x'.repeat(REQUEST_BYTES) }), 413, 'PAYLOAD_TOO_LARGE', /larger than the 4 KiB this endpoint accepts/);
  });

  test('415 UNSUPPORTED_MEDIA_TYPE for anything but JSON', async () => {
    expectError(await generate('<p>x</p>', { 'content-type': 'text/html' }), 415, 'UNSUPPORTED_MEDIA_TYPE', /Unsupported Content-Type "text\/html"/);
    expectError(await generate('html=x', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('403 and 404', () => {
  test('403 URL_DENIED: a destination the network policy refuses, in one fixed message', async () => {
    const loopback = expectError(await generate({ url: 'http://127.0.0.1:9/' }), 403, 'URL_DENIED');
    const metadata = expectError(await generate({ url: 'http://169.254.169.254/latest/' }), 403, 'URL_DENIED');
    assert.equal(loopback, metadata, 'nothing about what is there');
  });

  test('404 NOT_FOUND: an unknown template, an unknown download token', async () => {
    failure = new ImprintError('NOT_FOUND', 'No template "nope" in this team. Run `imprint list` to see the published ids.');
    const a1 = await app.inject({ method: 'POST', url: '/api/documents/nope', headers: { authorization: `Bearer ${noLimitKey}` }, payload: { props: {} } });
    expectError(a1, 404, 'NOT_FOUND', /No template "nope"/);
    expectError(await app.inject({ method: 'GET', url: '/api/templates/nope', headers: { authorization: `Bearer ${noLimitKey}` } }), 404, 'NOT_FOUND', /No template "nope"/);
    expectError(await app.inject({ method: 'GET', url: '/api/files/not-a-token' }), 404, 'NOT_FOUND', /unknown or has expired/);
  });

  test('404 ROUTE_NOT_FOUND: an endpoint the service does not have', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/nothing?x=1', headers: { authorization: `Bearer ${noLimitKey}` } });
    expectError(answer, 404, 'ROUTE_NOT_FOUND', /^No endpoint GET \/api\/nothing\. The API is described at \/openapi\.json\.$/);
    const wrongMethod = await app.inject({ method: 'PUT', url: '/api/generate', headers: { authorization: `Bearer ${noLimitKey}` } });
    expectError(wrongMethod, 404, 'ROUTE_NOT_FOUND', /PUT \/api\/generate/);
  });
});

describe('422, 429: limits', () => {
  test('422 LIMIT_EXCEEDED: the team\'s generation limit, as the store refuses it', async () => {
    failure = async () => store.reserveGeneration((await store.authenticateKey(key))!.team.id);
    const answer = await app.inject({ method: 'POST', url: '/api/generate', headers: { authorization: `Bearer ${key}` }, payload: { html: 'x' } });
    expectError(answer, 422, 'LIMIT_EXCEEDED', /generation limit of 0/);
  });

  test('422 DOCUMENT_TOO_LARGE: a document past the page or size limit, as core refuses it', async () => {
    failure = () => checkDocumentLimits(Buffer.alloc(2048), { maxPages: Infinity, maxPdfBytes: 1024 });
    expectError(await generate({ html: 'x' }), 422, 'DOCUMENT_TOO_LARGE', /per document this service returns/);
  });

  test('429 BUSY with Retry-After in whole seconds', async () => {
    failure = new ImprintError('BUSY', 'All 1 render slots are busy and 0 renders are already waiting. Try again in 3 s.', { retryAfterSeconds: 2.2 });
    const answer = await generate({ html: 'x' });
    expectError(answer, 429, 'BUSY', /Try again in 3 s/);
    assert.equal(answer.headers['retry-after'], '3');
  });
});

describe('5xx', () => {
  test('500 RENDER_FAILED: the caller\'s own page failed, said as it is', async () => {
    failure = new ImprintError('RENDER_FAILED', 'http://example.org/ answered HTTP 500; nothing was rendered.');
    expectError(await generate({ html: 'x' }), 500, 'RENDER_FAILED', /answered HTTP 500/);
  });

  test('500 INTERNAL: anything else, with the request id and nothing of the error; logged in full', async () => {
    for (const thrown of [new Error('secret /var/lib/imprint detail'), new ImprintError('BROWSER_FAILED', 'secret: the browser at /usr/bin/chromium crashed')]) {
      failure = thrown;
      const message = expectError(await generate({ html: 'x' }), 500, 'INTERNAL', /^Internal error \(request [^)]+\)/);
      assert.doesNotMatch(message, /secret/);
    }
    assert.ok(logs.some((line) => JSON.parse(line).msg === 'request failed' && JSON.parse(line).level === 50 && line.includes('secret')), logs.join('\n'));
  });

  test('504 RENDER_TIMEOUT', async () => {
    failure = new ImprintError('RENDER_TIMEOUT', 'The document did not finish within 30 s.');
    expectError(await generate({ html: 'x' }), 504, 'RENDER_TIMEOUT', /did not finish within 30 s/);
  });

  test('507 STORAGE_FULL: the disk is full, the folder stays in the log', async () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    failure = translateStorageFull(enospc, 'the PDF', dataDir);
    const message = expectError(await generate({ html: 'x', format: 'json' }), 507, 'STORAGE_FULL', /out of disk space/);
    assert.ok(!message.includes(dataDir));
    // An ENOSPC that nothing translated is the same answer.
    failure = enospc;
    expectError(await generate({ html: 'x' }), 507, 'STORAGE_FULL');
  });
  test('503 DATABASE_UNAVAILABLE with Retry-After: PostgreSQL out of reach, as node-postgres reports it', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const ended = new Error('Connection terminated unexpectedly');
    for (const cause of [refused, terminated, ended]) {
      assert.equal(isDatabaseUnreachable(cause), true, cause.message);
      failure = translateUnreachable(cause, '127.0.0.1:5432/imprint');
      const answer = await generate({ html: 'x' });
      expectError(answer, 503, 'DATABASE_UNAVAILABLE', /database cannot be reached at the moment.*Try again in a few seconds/);
      assert.equal(answer.headers['retry-after'], '2');
    }
    // A database error that is not about reaching it (a constraint, a bug) stays an internal error.
    const unique = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    assert.equal(isDatabaseUnreachable(unique), false);
    failure = translateUnreachable(unique, 'db');
    expectError(await generate({ html: 'x' }), 500, 'INTERNAL');
  });
});

describe('HTTP the server refuses before Fastify (a real socket)', () => {
  async function rawAnswer(request: string): Promise<string> {
    const socket = net.connect((app.server.address() as net.AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.write(request);
    // The server answers and closes the connection.
    await new Promise<void>((resolve, reject) => socket.on('close', () => resolve()).on('error', reject));
    return Buffer.concat(chunks).toString('utf8');
  }
  const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

  let listening: FastifyInstance;
  before(async () => {
    listening = app;
    await listening.listen({ port: 0, host: '127.0.0.1' });
  });

  test('431 HEADERS_TOO_LARGE and 400 INVALID_INPUT for what is not HTTP, each with its code', async () => {
    const big = await rawAnswer(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(big, /^HTTP\/1\.1 431 /);
    assert.deepEqual(bodyOf(big), { error: 'The request headers are too large.', code: 'HEADERS_TOO_LARGE' });
    const garbage = await rawAnswer('NOT HTTP AT ALL\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.deepEqual(bodyOf(garbage), { error: 'The request is not valid HTTP.', code: 'INVALID_INPUT' });
  });
});

test('503 DRAINING: a request that arrives once shutdown has begun, before authentication; /healthz keeps its own answer', async () => {
  const draining = await createApp(deps());
  await draining.close();
  // inject refuses a closed app; light-my-request (what inject is) drives its routing as a connection already open would.
  const ask = (url: string, method: 'GET' | 'POST' = 'GET') => lightMyRequest(draining.routing, { method, url, ...(method === 'POST' ? { payload: { html: 'x' } } : {}) });
  for (const answer of [await ask('/api/generate', 'POST'), await ask('/api/me'), await ask('/api/nothing')]) {
    expectError(answer, 503, 'DRAINING', /^The service is shutting down/);
    assert.equal(answer.headers.connection, 'close');
    assert.equal(answer.headers['www-authenticate'], undefined, 'refused before authentication');
  }
  const health = await ask('/healthz');
  assert.equal(health.statusCode, 503);
  assert.deepEqual({ ...(health.json() as object), error: undefined }, { status: 'unavailable', service: 'draining', browser: 'not asked: the service is shutting down', version: 'test', error: undefined });
  assert.ok(!logs.some((line) => JSON.parse(line).level >= 50), 'a refusal while draining is not logged as a failure');
});

test('/openapi.json documents `code` on the error object, with the catalogue\'s codes', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json', headers: { authorization: `Bearer ${noLimitKey}` } })).json();
  const responses = doc.paths['/api/generate'].post.responses;
  for (const status of ['400', '401', '413', '415', '422', '500', '504', '507']) {
    const schema = responses[status].content['application/json'].schema;
    assert.deepEqual(schema.required, ['error'], `A5's required member (${status})`);
    assert.equal(schema.properties.error.type, 'string');
    assert.deepEqual(schema.properties.code.enum, [...WIRE_ERROR_CODES], status);
  }
});

test('every render option is described in /openapi.json (A1 and A2; the job schema spreads the same fields, and this app mounts no jobs) and in the request-field table of docs/api.md', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json', headers: { authorization: `Bearer ${noLimitKey}` } })).json();
  const fields = (route: string) => doc.paths[route].post.requestBody.content['application/json'].schema.properties as Record<string, { description?: string }>;
  const guide = fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const tabled = new Set([...guide.matchAll(/^\| (`[a-zA-Z]+`(?:, `[a-zA-Z]+`)*) \|/gm)].flatMap(([, names]) => names!.split(', ').map((name) => name.slice(1, -1))));
  for (const field of RENDER_OPTION_FIELDS) {
    for (const route of ['/api/documents/{documentId}', '/api/generate']) assert.ok(fields(route)[field], `${route} describes ${field}`);
    assert.ok(tabled.has(field), `docs/api.md's request fields list ${field}`);
  }
});

test('docs/api.md catalogues every code the service sends, with its status', () => {
  const doc = fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [code, Number(status)]);
  assert.deepEqual(
    rows.sort(),
    WIRE_ERROR_CODES.map((code) => [code, httpStatusOf(code)]).sort(),
  );
});
