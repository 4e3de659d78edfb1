/**
 * The HTTP contract (shared/spec/api.md), one test per rule and per status: the app on
 * 127.0.0.1 port 0, real HTTP, a real SQLite data folder and a real Chromium shared by the
 * whole file. PDFs are read by content (pdfinfo, pdftotext), not only by their header.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isPdf, pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type Reply, type TestService } from './helpers/service.js';
import type { Artifact } from '../../src/core/artifact.js';
import { httpStatusOf, isWireErrorCode } from '../../src/core/errors.js';

let service: TestService;
let acme: { name: string; key: string; keyId: string };
let other: { name: string; key: string; keyId: string };
let greeting: Artifact;
let greetingUuid: string;
let pages: http.Server;
let pagesUrl: string;

const A4 = [595.28, 841.89] as const;
const props = { name: 'Ada Lovelace', lines: ['Analytical Engine', 'Note G'] };

/** A5's object and this service's `code` beside it: one of docs/api.md's codes, catalogued with this status (`code` when named). */
function expectError(reply: Reply, status: number, pattern?: RegExp, code?: string) {
  assert.equal(reply.status, status, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], describeReply(reply));
  assert.equal(typeof body.error, 'string');
  assert.ok(isWireErrorCode(body.code) && httpStatusOf(body.code) === status, describeReply(reply));
  if (code) assert.equal(body.code, code, describeReply(reply));
  assert.doesNotMatch(body.error, /\n\s+at /, 'no stack trace is sent to the client');
  if (pattern) assert.match(body.error, pattern);
  return body.error as string;
}

function expectPdf(reply: Reply): Buffer {
  assert.equal(reply.status, 200, describeReply(reply));
  assert.equal(reply.headers['content-type'], 'application/pdf');
  assert.ok(isPdf(reply.body));
  return reply.body;
}

const render = (id: string, body: unknown, key = acme.key) => service.call('POST', `/api/documents/${id}`, { key, body });

/** A POST whose headers declare `bytes` of JSON, none sent: the service's answer to the size alone. */
function declaredOversize(url: string, key: string, bytes: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(bytes) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy();
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: () => JSON.parse(body.toString('utf8')), text: () => body.toString('utf8') });
      });
      response.on('error', reject);
    });
    request.setTimeout(30_000, () => request.destroy(new Error('no answer to a declared oversize body within 30 s')));
    request.on('error', reject);
    request.flushHeaders();
  });
}
const generate = (body: unknown, key = acme.key) => service.call('POST', '/api/generate', { key, body });
const publish = (id: string, artifact: unknown, key = acme.key) => service.call('POST', '/api/templates', { key, body: { id, artifact } });

before(async () => {
  // A2's web pages are served from this machine: the operator allows loopback for them.
  service = await startTestService({ net: { allow: ['127.0.0.1'] } });
  acme = await service.team('acme');
  other = await service.team('other');
  greeting = await fixtureArtifact('Greeting.tsx');
  const published = await publish('greeting', greeting);
  assert.equal(published.status, 201, describeReply(published));
  greetingUuid = published.json().uuid;
  const landscape = await publish('landscape', await fixtureArtifact('Landscape.tsx'));
  assert.equal(landscape.status, 201, describeReply(landscape));

  // Web pages for A2, served from this machine.
  pages = http.createServer((req, res) => {
    const files: Record<string, [string, string]> = {
      '/site/page.html': ['text/html', '<html><body><h1>Remote page body</h1></body></html>'],
      '/site/style.css': ['text/css', '@page { size: A5 landscape; } .mark::after { content: "styled"; }'],
    };
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end('not here');
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});

after(async () => {
  await service?.close();
  pages?.close();
});

describe('A1: POST /api/documents/{documentId}', () => {
  test('200 application/pdf: the template rendered with the props, A4 portrait by default', async () => {
    const pdf = expectPdf(await render('greeting', { props }));
    const info = pdfInfo(pdf);
    assert.equal(info.pages, 1);
    assert.ok(sizeMatches(info, ...A4), `size ${info.widthPt}x${info.heightPt}`);
    const text = pdfText(pdf);
    assert.match(text, /Hello Ada Lovelace/);
    assert.match(text, /Analytical Engine/);
    assert.match(text, /Note G/);
  });

  test('documentId may be the template UUID', async () => {
    const pdf = expectPdf(await render(greetingUuid, { props: { name: 'By Uuid' } }));
    assert.match(pdfText(pdf), /Hello By Uuid/);
  });

  test('format pdf given explicitly is the same as omitted', async () => {
    const pdf = expectPdf(await render('greeting', { props: { name: 'Explicit' }, format: 'pdf' }));
    assert.match(pdfText(pdf), /Hello Explicit/);
  });

  test('tagged (an extension): omitted or true answers a tagged PDF, false an untagged one', async () => {
    const tagged = expectPdf(await render('greeting', { props: { name: 'Tagged' } }));
    const plain = expectPdf(await render('greeting', { props: { name: 'Plain' }, tagged: false }));
    const taggedLine = (pdf: Buffer) => /^Tagged:\s+(\w+)/m.exec(execFileSync('pdfinfo', ['-'], { input: pdf, encoding: 'utf8' }))?.[1];
    assert.equal(taggedLine(tagged), 'yes');
    assert.equal(taggedLine(plain), 'no');
    assert.match(pdfText(tagged), /Hello Tagged/);
  });

  test('size and orientation (A4): letter landscape, and a custom size with units', async () => {
    const letter = pdfInfo(expectPdf(await render('greeting', { props, size: 'letter', orientation: 'landscape' })));
    assert.ok(sizeMatches(letter, 792, 612), `letter landscape: ${letter.widthPt}x${letter.heightPt}`);
    const custom = pdfInfo(expectPdf(await render('greeting', { props, size: '100mm 150mm' })));
    assert.ok(sizeMatches(custom, 283.46, 425.2), `100mm 150mm: ${custom.widthPt}x${custom.heightPt}`);
    const inches = pdfInfo(expectPdf(await render('greeting', { props, size: '8.5in 11in' })));
    assert.ok(sizeMatches(inches, 612, 792), `8.5in 11in: ${inches.widthPt}x${inches.heightPt}`);
  });

  test("the template's own @page size wins when the request names none; a requested size wins over it", async () => {
    const own = pdfInfo(expectPdf(await render('landscape', { props: { title: 'Wide' } })));
    assert.ok(sizeMatches(own, 595.28, 419.53), `A5 landscape from CSS: ${own.widthPt}x${own.heightPt}`);
    const asked = pdfInfo(expectPdf(await render('landscape', { props: { title: 'Tall' }, size: 'A4' })));
    assert.ok(sizeMatches(asked, ...A4), `A4 asked: ${asked.widthPt}x${asked.heightPt}`);
  });

  test('404 for an unknown template', async () => {
    expectError(await render('no-such-template', { props }), 404, /no-such-template/, 'NOT_FOUND');
  });

  test("404 for another team's template, exactly as if it did not exist", async () => {
    const byId = await render('greeting', { props }, other.key);
    const unknownId = await render('greeting-never-published', { props }, other.key);
    assert.equal(expectError(byId, 404), expectError(unknownId, 404).replace('greeting-never-published', 'greeting'));
    const byUuid = await render(greetingUuid, { props }, other.key);
    const unknownUuid = await render('00000000-0000-4000-8000-000000000000', { props }, other.key);
    assert.equal(expectError(byUuid, 404), expectError(unknownUuid, 404).replace('00000000-0000-4000-8000-000000000000', greetingUuid));
  });

  test('500 when the template throws: its message, no stack; the full error is in the log', async () => {
    const message = expectError(await render('greeting', { props: { name: 'Boom', explode: true } }), 500, /cannot greet Boom/, 'RENDER_FAILED');
    assert.doesNotMatch(message, /at .*\.js:\d+/);
    const logged = service.logs.map((line) => JSON.parse(line)).find((entry) => entry.level === 50 && entry.err?.message?.includes('cannot greet Boom'));
    assert.ok(logged, 'the failure is logged');
    assert.ok(logged.err.stack, 'the log has the stack');
  });

  test('500 for an internal failure: a generic message with the request id, nothing of the server leaked', async () => {
    const team = await service.team('fragile');
    // An artifact of its own (the engine caches decoded artifacts by hash), then damaged behind the service's back.
    const frail = { ...greeting, sourceName: 'Frail.tsx' };
    const published = await publish('frail', frail, team.key);
    assert.equal(published.status, 201);
    const sha = createHash('sha256').update(JSON.stringify(frail)).digest('hex');
    const key = `artifacts/${sha}`;
    const saved = (await service.operator.objects.get(key))!;
    await service.operator.objects.put(key, Buffer.from('damaged'));
    try {
      const error = expectError(await service.call('POST', '/api/documents/frail', { key: team.key, body: { props } }), 500, /Internal error \(request [\w-]+\)/, 'INTERNAL');
      assert.ok(!error.includes(service.dataDir), 'no server path in the message');
      assert.ok(!error.includes(key), 'nor where the object is');
      assert.ok(service.logs.some((line) => line.includes(service.objectName(key))), 'the log names the damaged file');
    } finally {
      await service.operator.objects.put(key, saved);
    }
  });
});

describe('A3: the three result forms', () => {
  test('base64: application/json {"data"} holding the PDF', async () => {
    const reply = await render('greeting', { props: { name: 'Base Sixty-Four' }, format: 'base64' });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const body = reply.json();
    assert.deepEqual(Object.keys(body), ['data']);
    assert.match(pdfText(Buffer.from(body.data, 'base64')), /Hello Base Sixty-Four/);
  });

  test('json: application/json {"url"}, an absolute URL under the service that serves the PDF without a key', async () => {
    const reply = await render('greeting', { props: { name: 'Linked' }, format: 'json' });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const body = reply.json();
    assert.deepEqual(Object.keys(body), ['url']);
    assert.ok(body.url.startsWith(`${service.url}/api/files/`), body.url);
    const token = body.url.slice(`${service.url}/api/files/`.length);
    assert.ok(token.length >= 43, 'at least 256 bits of token');
    const download = await service.call('GET', new URL(body.url).pathname);
    assert.match(pdfText(expectPdf(download)), /Hello Linked/);
    assert.ok(service.logs.some((line) => line.includes('/api/files/[token]')), 'the download was logged');
    assert.ok(!service.logs.some((line) => line.includes(token)), 'but not its token');
  });
});

describe('Part B: invalid bodies answer 400 naming the field', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no props', { format: 'pdf' }, /props/],
    ['props an array', { props: [1, 2] }, /props/],
    ['props a string', { props: 'Ada' }, /props/],
    ['props null', { props: null }, /props/],
    ['unknown format', { props, format: 'docx' }, /format/],
    ['format not a string', { props, format: 1 }, /format/],
    ['bad size', { props, size: 'A9' }, /size/],
    ['size without a unit', { props, size: '100 150' }, /size/],
    ['size not a string', { props, size: 210 }, /size/],
    ['bad orientation', { props, orientation: 'sideways' }, /orientation/],
    ['tagged not a boolean', { props, tagged: 'maybe' }, /tagged/],
    ['body an array', [{ props }], /body/i],
  ];
  for (const [name, body, field] of cases) {
    test(`A1 ${name}`, async () => {
      expectError(await render('greeting', body), 400, field);
    });
  }

  test('A1 body not JSON', async () => {
    const reply = await service.call('POST', '/api/documents/greeting', { key: acme.key, rawBody: '{"props": {', headers: { 'content-type': 'application/json' } });
    expectError(reply, 400, /JSON/);
  });

  test('A1 empty body', async () => {
    const reply = await service.call('POST', '/api/documents/greeting', { key: acme.key, rawBody: '', headers: { 'content-type': 'application/json' } });
    expectError(reply, 400, /empty|JSON/);
  });

  test('A2 with neither html nor url', async () => {
    expectError(await generate({ format: 'pdf' }), 400, /html.*url|url.*html/);
  });

  test('A2 bad fields: html not a string, url not http(s), bad size', async () => {
    expectError(await generate({ html: 42 }), 400, /html/);
    expectError(await generate({ url: 'file:///etc/passwd' }), 400, /url/);
    expectError(await generate({ url: 'not a url' }), 400, /url/);
    expectError(await generate({ html: '<p>x</p>', size: 'huge' }), 400, /size/);
    expectError(await generate({ html: '<p>x</p>', format: 'png' }), 400, /format/, 'INVALID_INPUT');
  });
});

describe('Part B: authentication (401 with WWW-Authenticate: Bearer)', () => {
  const expect401 = (reply: Reply) => {
    expectError(reply, 401, undefined, 'UNAUTHORIZED');
    assert.match(String(reply.headers['www-authenticate']), /^Bearer/);
  };

  test('missing key', async () => {
    expect401(await service.call('POST', '/api/documents/greeting', { body: { props } }));
  });

  test('malformed Authorization header', async () => {
    expect401(await service.call('POST', '/api/documents/greeting', { body: { props }, headers: { authorization: `Basic ${acme.key}` } }));
    expect401(await service.call('POST', '/api/documents/greeting', { body: { props }, headers: { authorization: 'Bearer' } }));
  });

  test('unknown key', async () => {
    expect401(await render('greeting', { props }, 'imp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
    expect401(await render('greeting', { props }, 'not-even-a-key'));
  });

  test('revoked key', async () => {
    const team = await service.team('revoking');
    assert.equal((await service.call('GET', '/api/me', { key: team.key })).status, 200);
    await service.operator.revokeApiKey(team.keyId);
    expect401(await service.call('GET', '/api/me', { key: team.key }));
  });

  test('nothing about templates is revealed: an existing and an unknown id answer alike, before the body is read', async () => {
    const existing = await service.call('POST', '/api/documents/greeting', { body: { nonsense: true } });
    const unknown = await service.call('POST', '/api/documents/nothing-here', { body: { props } });
    expect401(existing);
    expect401(unknown);
    // Alike but for the request id each answer carries.
    const { requestId: _existingId, ...existingBody } = existing.json();
    const { requestId: _unknownId, ...unknownBody } = unknown.json();
    assert.deepEqual(existingBody, unknownBody);
  });

  test('every endpoint but /healthz and /api/files needs a key', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/generate', { html: '<p>x</p>' }],
      ['POST', '/api/templates', { id: 'x', artifact: greeting }],
      ['GET', '/api/templates'],
      ['GET', '/api/templates/greeting'],
      ['DELETE', '/api/templates/greeting'],
      ['GET', '/api/me'],
      ['GET', '/openapi.json'],
    ] as const) {
      expect401(await service.call(method, url, { body }));
    }
  });
});

describe('Part B: body size, Content-Type, generation limit', () => {
  test('413 for a body over the limit', async () => {
    // The body's declared size is judged before a byte of it is read, and the connection is
    // closed after the answer: sending the 11 MiB would race that close (EPIPE on a busy
    // machine), so the headers go alone and the answer is read.
    expectError(await declaredOversize(`${service.url}/api/documents/greeting`, acme.key, 11 * 1024 * 1024), 413, /larger than/, 'PAYLOAD_TOO_LARGE');
  });

  test('415 for a body that is not JSON by its Content-Type, or has none', async () => {
    expectError(await service.call('POST', '/api/documents/greeting', { key: acme.key, rawBody: JSON.stringify({ props }), headers: { 'content-type': 'text/plain' } }), 415, /application\/json/, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await service.call('POST', '/api/generate', { key: acme.key, rawBody: 'html=<p>x</p>', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    expectError(await service.call('POST', '/api/generate', { key: acme.key, rawBody: '{"html": "<p>x</p>"}' }), 415);
  });

  test('422 past the limit (A1 and A2 both count), and nothing is rendered or stored', async () => {
    const team = await service.team('small', 2);
    assert.equal((await publish('greeting', greeting, team.key)).status, 201);
    const filesBefore = (await service.objectNames('files')).length;
    expectPdf(await service.call('POST', '/api/documents/greeting', { key: team.key, body: { props } }));
    const linked = await service.call('POST', '/api/generate', { key: team.key, body: { html: '<p>counted</p>', format: 'json' } });
    assert.equal(linked.status, 200, describeReply(linked));
    expectError(await service.call('POST', '/api/documents/greeting', { key: team.key, body: { props, format: 'json' } }), 422, /limit|2 generations/, 'LIMIT_EXCEEDED');
    expectError(await service.call('POST', '/api/generate', { key: team.key, body: { html: '<p>x</p>', format: 'json' } }), 422);
    assert.equal(await service.operator.usage((await service.operator.getTeam('small'))!.id), 2);
    assert.equal((await service.objectNames('files')).length, filesBefore + 1, 'only the successful json result kept a file');
  });

  test('only successful generations count: a failed render gives its unit back', async () => {
    const team = await service.team('one-shot', 1);
    assert.equal((await publish('greeting', greeting, team.key)).status, 201);
    expectError(await service.call('POST', '/api/documents/greeting', { key: team.key, body: { props: { name: 'x', explode: true } } }), 500);
    expectPdf(await service.call('POST', '/api/documents/greeting', { key: team.key, body: { props } }));
    expectError(await service.call('POST', '/api/documents/greeting', { key: team.key, body: { props } }), 422);
  });

  test('50 simultaneous renders against a limit of 10: exactly 10 succeed, the rest answer 422', async () => {
    const team = await service.team('crowd', 10);
    assert.equal((await publish('greeting', greeting, team.key)).status, 201);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => service.call('POST', '/api/documents/greeting', { key: team.key, body: { props: { name: `Caller ${i}` } } })),
    );
    const ok = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 422);
    assert.equal(ok.length, 10, replies.filter((r) => r.status !== 200 && r.status !== 422).map(describeReply).join('\n'));
    assert.equal(refused.length, 40);
    for (const reply of ok) assert.match(pdfText(reply.body), /Hello Caller \d+/);
    assert.equal(await service.operator.usage((await service.operator.getTeam('crowd'))!.id), 10);
  });
});

describe('A2: POST /api/generate', () => {
  test('only html: that HTML converted, A4 by default', async () => {
    const pdf = expectPdf(await generate({ html: '<h1>Raw HTML heading</h1><p>second line</p>' }));
    const info = pdfInfo(pdf);
    assert.ok(sizeMatches(info, ...A4), `${info.widthPt}x${info.heightPt}`);
    assert.match(pdfText(pdf), /Raw HTML heading/);
  });

  test('only url: that page converted', async () => {
    const pdf = expectPdf(await generate({ url: `${pagesUrl}/site/page.html` }));
    assert.match(pdfText(pdf), /Remote page body/);
  });

  test('html and url: the html replaces the page, and its relative links resolve against url', async () => {
    const html = '<link rel="stylesheet" href="style.css"><p class="mark">Injected text</p>';
    const pdf = expectPdf(await generate({ url: `${pagesUrl}/site/page.html`, html }));
    const text = pdfText(pdf);
    assert.match(text, /Injected text/);
    assert.doesNotMatch(text, /Remote page body/, "the page's own content was replaced");
    const info = pdfInfo(pdf);
    assert.ok(sizeMatches(info, 595.28, 419.53), `style.css (relative) set A5 landscape: ${info.widthPt}x${info.heightPt}`);
  });

  test('size and orientation apply; base64 and json forms', async () => {
    const sized = pdfInfo(expectPdf(await generate({ html: '<p>sized</p>', size: 'A5', orientation: 'landscape' })));
    assert.ok(sizeMatches(sized, 595.28, 419.53), `${sized.widthPt}x${sized.heightPt}`);
    const base64 = await generate({ html: '<p>as base64</p>', format: 'base64' });
    assert.equal(base64.status, 200, describeReply(base64));
    assert.match(pdfText(Buffer.from(base64.json().data, 'base64')), /as base64/);
    const linked = await generate({ html: '<p>as a link</p>', format: 'json' });
    assert.equal(linked.status, 200, describeReply(linked));
    assert.match(pdfText(expectPdf(await service.call('GET', new URL(linked.json().url).pathname))), /as a link/);
  });

  test('500 with the reason when the page cannot be loaded', async () => {
    expectError(await generate({ url: `${pagesUrl}/site/missing.html` }), 500, /404/);
  });
});

describe('Part C: templates', () => {
  test('POST /api/templates answers 201 {id, uuid, version, publishedAt}; each publish is a new version', async () => {
    const first = await publish('versioned', greeting);
    assert.equal(first.status, 201, describeReply(first));
    const body = first.json();
    assert.deepEqual(Object.keys(body).sort(), ['id', 'publishedAt', 'uuid', 'version']);
    assert.equal(body.id, 'versioned');
    assert.equal(body.version, 1);
    assert.match(body.uuid, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(body.publishedAt)));
    const second = (await publish('versioned', greeting)).json();
    assert.equal(second.version, 2);
    assert.equal(second.uuid, body.uuid);
  });

  test('publish refuses a bad id, a missing or foreign artifact (400) and non-JSON (415)', async () => {
    expectError(await publish('../escape', greeting), 400, /id/);
    expectError(await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'x' } }), 400, /artifact/);
    expectError(await publish('x', { ...greeting, format: 'other/1' }), 400, /format/);
    expectError(await publish('x', { format: greeting.format }), 400, /js|css|assets/);
    expectError(await service.call('POST', '/api/templates', { key: acme.key, rawBody: 'id=x', headers: { 'content-type': 'text/plain' } }), 415);
    const listed = (await service.call('GET', '/api/templates', { key: acme.key })).json();
    assert.ok(!listed.templates.some((t: { id: string }) => t.id === 'x'), 'nothing half-stored');
  });

  test('an optional propsSchema is stored with the version and checked by every render (400 naming the field)', async () => {
    const propsSchema = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const reply = await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'typed', artifact: greeting, propsSchema } });
    assert.equal(reply.status, 201, describeReply(reply));
    expectError(await render('typed', { props: { name: 42 } }), 400, /name/);
    assert.match(pdfText(expectPdf(await render('typed', { props: { name: 'Typed' } }))), /Hello Typed/);
    expectError(await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'typed', artifact: greeting, propsSchema: 'nope' } }), 400, /propsSchema/);
  });

  test('two simultaneous publishes of one id give two complete versions', async () => {
    const letter = await fixtureArtifact('Landscape.tsx');
    const [a, b] = await Promise.all([publish('raced', greeting), publish('raced', letter)]);
    assert.equal(a.status, 201, describeReply(a));
    assert.equal(b.status, 201, describeReply(b));
    assert.deepEqual([a.json().version, b.json().version].sort(), [1, 2]);
    const details = (await service.call('GET', '/api/templates/raced', { key: acme.key })).json();
    assert.deepEqual(details.versions.map((v: { version: number }) => v.version), [1, 2]);
    const sha = (artifact: Artifact) => createHash('sha256').update(JSON.stringify(artifact)).digest('hex');
    const expected = new Map([[a.json().version, greeting], [b.json().version, letter]]);
    for (const version of details.versions) {
      const artifact = expected.get(version.version)!;
      assert.equal(version.artifactSha256, sha(artifact), `version ${version.version} holds its whole artifact`);
      assert.equal(version.bytes, Buffer.byteLength(JSON.stringify(artifact)));
      const stored = (await service.operator.objects.get(`artifacts/${version.artifactSha256}`))!;
      assert.equal(createHash('sha256').update(stored).digest('hex'), version.artifactSha256);
    }
  });

  test('GET /api/templates lists the team\'s own ids with latest version and publish time', async () => {
    const reply = await service.call('GET', '/api/templates', { key: acme.key });
    assert.equal(reply.status, 200, describeReply(reply));
    const { templates } = reply.json();
    const entry = templates.find((t: { id: string }) => t.id === 'greeting');
    assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'id', 'latestVersion', 'publishedAt', 'uuid']);
    assert.equal(entry.uuid, greetingUuid);
    assert.equal(entry.latestVersion, 1);
    const others = (await service.call('GET', '/api/templates', { key: other.key })).json();
    assert.deepEqual(others.templates, [], 'another team sees none of them');
  });

  test('GET /api/templates/{id} shows versions; 404 for unknown or another team\'s', async () => {
    const reply = await service.call('GET', `/api/templates/${greetingUuid}`, { key: acme.key });
    assert.equal(reply.status, 200, describeReply(reply));
    const body = reply.json();
    assert.equal(body.id, 'greeting');
    assert.equal(body.versions.length, 1);
    assert.deepEqual(Object.keys(body.versions[0]).sort(), ['artifactSha256', 'bytes', 'publishedAt', 'publishedBy', 'rollbackOf', 'sourceName', 'version']);
    assert.equal(body.versions[0].sourceName, 'Greeting.tsx');
    expectError(await service.call('GET', '/api/templates/greeting', { key: other.key }), 404, /greeting/);
    expectError(await service.call('GET', '/api/templates/missing', { key: acme.key }), 404, /missing/);
  });

  test('DELETE /api/templates/{id}: 204, then it renders and lists no more; 404 for unknown', async () => {
    assert.equal((await publish('doomed', greeting)).status, 201);
    expectError(await service.call('DELETE', '/api/templates/doomed', { key: other.key }), 404);
    const removed = await service.call('DELETE', '/api/templates/doomed', { key: acme.key });
    assert.equal(removed.status, 204, describeReply(removed));
    assert.equal(removed.body.length, 0);
    expectError(await render('doomed', { props }), 404);
    const { templates } = (await service.call('GET', '/api/templates', { key: acme.key })).json();
    assert.ok(!templates.some((t: { id: string }) => t.id === 'doomed'));
    expectError(await service.call('DELETE', '/api/templates/doomed', { key: acme.key }), 404);
  });
});

describe('Part C: downloads, health, identity, description', () => {
  test('GET /api/files/{token}: 404 for an unknown token, without a key', async () => {
    expectError(await service.call('GET', '/api/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 404, /expired|unknown/);
    expectError(await service.call('GET', '/api/files/short'), 404);
  });

  test('a download URL survives a restart', async () => {
    const linked = await render('greeting', { props: { name: 'Short Lived' }, format: 'json' });
    const urlPath = new URL(linked.json().url).pathname;
    await service.restart();
    assert.match(pdfText(expectPdf(await service.call('GET', urlPath))), /Short Lived/);
  });

  test('a download URL answers 404 once expired, and the file is purged when the service starts', async () => {
    // The clock of a child process cannot be moved: its download URLs live 1.5 s instead (--url-ttl).
    const ttlMs = 1500;
    const shortLived = await startTestService({ urlTtlMs: ttlMs });
    try {
      const { key } = await shortLived.team('short');
      const published = await shortLived.call('POST', '/api/templates', { key, body: { id: 'greeting', artifact: greeting } });
      assert.equal(published.status, 201, describeReply(published));
      const linked = await shortLived.call('POST', '/api/documents/greeting', { key, body: { props: { name: 'Short Lived' }, format: 'json' } });
      assert.equal(linked.status, 200, describeReply(linked));
      // Issued before the answer came: expired once its lifetime has passed since then.
      const expiredAt = Date.now() + ttlMs + 50;
      const files = async () => (await shortLived.objectNames('files')).filter((f) => f.endsWith('.pdf')).length;
      assert.equal(await files(), 1, 'the issued PDF is stored');
      await new Promise((resolve) => setTimeout(resolve, expiredAt - Date.now()));
      expectError(await shortLived.call('GET', new URL(linked.json().url).pathname), 404, /expired/);
      await shortLived.restart(); // purges expired files as it starts
      assert.equal(await files(), 0, 'expired files were removed from storage');
    } finally {
      await shortLived.close();
    }
  });

  test('GET /healthz without a key: the service and its browser are ready', async () => {
    const reply = await service.call('GET', '/healthz');
    assert.equal(reply.status, 200, describeReply(reply));
    assert.deepEqual({ ...reply.json<object>(), version: undefined }, { status: 'ok', service: 'ok', browser: 'ok', storage: 'ok', version: undefined });
  });

  test('GET /api/me: the team, its limit and this month\'s usage', async () => {
    const team = await service.team('counted', 7);
    assert.deepEqual((await service.call('GET', '/api/me', { key: team.key })).json().team.usedThisMonth, 0);
    expectPdf(await service.call('POST', '/api/generate', { key: team.key, body: { html: '<p>one</p>' } }));
    const { team: me } = (await service.call('GET', '/api/me', { key: team.key })).json();
    assert.equal(me.name, 'counted');
    assert.equal(me.generationLimit, 7);
    assert.equal(me.usedThisMonth, 1);
    assert.match(me.month, /^\d{4}-\d{2}$/);
  });

  test('an unknown endpoint answers 404 with an error object', async () => {
    expectError(await service.call('GET', '/api/nothing', { key: acme.key }), 404, /openapi/, 'ROUTE_NOT_FOUND');
  });

  /** Part A's fields are in the body schema; more (our extensions) may be, but none of them required. */
  function expectPartAFields(schema: { properties: Record<string, unknown>; required?: string[] }, partA: string[]) {
    const fields = Object.keys(schema.properties);
    assert.deepEqual(partA.filter((field) => !fields.includes(field)), [], `Part A fields missing from ${fields.join(', ')}`);
    const requiredExtensions = (schema.required ?? []).filter((field) => !partA.includes(field));
    assert.deepEqual(requiredExtensions, [], 'an extension of ours is never required of a Part A client');
  }

  test('GET /openapi.json (with a key): OpenAPI 3 whose Part A paths, fields and responses match api.md', async () => {
    const reply = await service.call('GET', '/openapi.json', { key: acme.key });
    assert.equal(reply.status, 200, describeReply(reply));
    const doc = reply.json();
    assert.match(doc.openapi, /^3\./);
    assert.equal(doc.info.version, '1.0.0');

    const a1 = doc.paths['/api/documents/{documentId}'].post;
    assert.deepEqual(a1.parameters.map((p: { name: string; in: string }) => [p.name, p.in]), [['documentId', 'path']]);
    const a1Body = a1.requestBody.content['application/json'].schema;
    // Part A's fields are all there; our own extensions (tagged, Part E's version...) may be
    // added beside them, optional, so that a Part A client never has to send them.
    expectPartAFields(a1Body, ['props', 'format', 'size', 'orientation']);
    assert.equal(a1Body.properties.version.type, 'integer', "Part E's version");
    assert.equal(a1Body.properties.tagged.type, 'boolean');
    assert.deepEqual(a1Body.required, ['props']);
    assert.equal(a1Body.properties.props.type, 'object');
    assert.deepEqual(a1Body.properties.format.enum, ['pdf', 'base64', 'json']);
    assert.deepEqual(a1Body.properties.orientation.enum, ['portrait', 'landscape']);
    assert.equal(a1Body.properties.size.type, 'string');
    for (const status of ['200', '404', '422', '500']) assert.ok(a1.responses[status], `A1 documents ${status}`);

    const a2 = doc.paths['/api/generate'].post;
    const a2Body = a2.requestBody.content['application/json'].schema;
    expectPartAFields(a2Body, ['html', 'url', 'format', 'size', 'orientation']);
    assert.deepEqual(a2Body.required ?? [], [], 'A2 requires no field of its own (html or url is checked by the handler)');
    assert.equal(a2Body.properties.url.format, 'uri');
    for (const status of ['200', '400', '422', '500']) assert.ok(a2.responses[status], `A2 documents ${status}`);

    for (const operation of [a1, a2]) {
      const ok = operation.responses['200'].content;
      assert.deepEqual(Object.keys(ok).sort(), ['application/json', 'application/pdf']);
      const forms = ok['application/json'].schema.oneOf;
      for (const member of ['data', 'url']) {
        const form = forms.find((s: { required?: string[] }) => s.required?.includes(member));
        assert.ok(form, `a json result form with ${member}: ${JSON.stringify(forms)}`);
        assert.equal(form.properties[member].type, 'string');
      }
      const error = operation.responses['500'].content['application/json'].schema;
      assert.deepEqual(error.required, ['error']);
      assert.equal(error.properties.code.type, 'string', 'the code beside A5\'s error is documented');
    }
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    assert.deepEqual(doc.paths['/healthz'].get.security, []);
    assert.deepEqual(doc.paths['/api/files/{token}'].get.security, []);
    for (const partC of ['/api/templates', '/api/templates/{id}', '/api/me']) assert.ok(doc.paths[partC], partC);
  });
});
