/**
 * `imprint serve`'s settings as an operator meets them: the built CLI as a child process,
 * started three ways (no setting at all, small values by flag, the same small values by
 * IMPRINT_* variable), each setting observed by what it does to requests, not by what --help
 * or the start-up line says:
 * - --max-body-size: a render body one byte over the limit answers 413, one at it is read
 *   (a 400 for its bad field, so no render is needed);
 * - --max-upload-size: the same for a publish body, above the render body limit;
 * - --render-timeout: a page that never finishes answers 504 saying the deadline, no sooner;
 * - --url-ttl: a `json` result's URL says when it expires (Expires) and then stops working;
 * - --public-url: the `json` result's URL is under it (the listening address by default);
 * - --max-pages, --max-pdf-size, --max-props-depth: 422, 422 and 400 just past them, the
 *   document or props just inside passing.
 * The defaults (10 MiB body, 50 MiB upload, 30 s deadline, 24 h URLs, depth 32, download URLs
 * on the listening address) are observed on the child started with none of them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { isPdf, pdfInfo, pdfText } from '../helpers/pdf.js';
import { callService, dataDirWithTeam, eventually, startServeProcess, stopServe, type ServeProcess } from './helpers/faults.js';
import { describeReply, replyOf, type Reply } from './helpers/service.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The small values both ways of setting them use. */
const SMALL = { bodyBytes: 4 * KiB, uploadBytes: 32 * KiB, deadlineS: 3, ttlS: 8, maxPages: 2, maxPdfBytes: 64 * KiB, maxPropsDepth: 4 };

/** Every variable a limit reads: the children start from an environment without any of them. */
const NO_SETTINGS: Record<string, undefined> = Object.fromEntries(
  ['MAX_BODY_SIZE', 'MAX_UPLOAD_SIZE', 'RENDER_TIMEOUT', 'URL_TTL', 'PUBLIC_URL', 'MAX_PAGES', 'MAX_PDF_SIZE', 'MAX_PROPS_DEPTH', 'ALLOW_HOSTS', 'ALLOW_PRIVATE'].map((name) => [
    `IMPRINT_${name}`,
    undefined,
  ]),
);

/** A JSON body of exactly `bytes` bytes whose `html` is of the wrong type: read whole, then refused with 400. */
function paddedBody(bytes: number, fields = '"html":5'): string {
  const shell = `{${fields},"pad":""}`;
  assert.ok(bytes >= shell.length);
  return `{${fields},"pad":"${'x'.repeat(bytes - shell.length)}"}`;
}

async function post(serve: ServeProcess, key: string, urlPath: string, rawBody: string): Promise<Reply> {
  const response = await request(`${serve.url}${urlPath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: rawBody,
  });
  return replyOf(response);
}

/** Props nesting `depth` objects deep. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { deeper: value };
  return value;
}

function expectError(reply: Reply, status: number, message: RegExp) {
  assert.equal(reply.status, status, describeReply(reply));
  assert.match(reply.json().error, message);
}

/**
 * A request of which only the head is sent, saying its body is `length` bytes: a body over the
 * limit is refused from its Content-Length, before it is read (the service answers and closes).
 */
function headOnly(serve: ServeProcess, key: string, urlPath: string, length: number): Promise<{ status: number; error: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(serve.port, '127.0.0.1');
    const received: Buffer[] = [];
    // A deadline, not a wait: a service that waited for the body would never answer.
    const timer = setTimeout(() => socket.destroy(new Error(`no answer to a ${length}-byte head on ${urlPath} within 30 s`)), 30_000);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, error: JSON.parse(body).error });
      } catch {
        reject(new Error(`not an HTTP answer with a JSON body: ${text.slice(0, 300)}`));
      }
    });
    socket.write(`POST ${urlPath} HTTP/1.1\r\nHost: imprint\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
  });
}

/** The body size limit of a route: a body at it is read (400 for its bad field), one byte more is 413 naming the limit. */
async function expectBodyLimit(serve: ServeProcess, key: string, urlPath: string, limit: number, limitText: string, fields?: string) {
  const at = await post(serve, key, urlPath, paddedBody(limit, fields));
  assert.equal(at.status, 400, `${limit} bytes to ${urlPath} are read: ${describeReply(at)}`);
  const over = await headOnly(serve, key, urlPath, limit + 1);
  assert.equal(over.status, 413, `${limit + 1} bytes to ${urlPath}: ${JSON.stringify(over)}`);
  assert.match(over.error, new RegExp(`larger than the ${limitText} this endpoint accepts`));
}

/** A `json` result: its URL, and the download's answer while it works. */
async function jsonResult(serve: ServeProcess, key: string, text: string): Promise<{ url: string; download: Reply; renderedAt: number }> {
  const reply = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: `<h1>${text}</h1>`, format: 'json' } });
  const renderedAt = Date.now();
  assert.equal(reply.status, 200, describeReply(reply));
  const { url } = reply.json<{ url: string }>();
  // Fetched from where the service listens, whatever host the URL names.
  const download = await callService(serve.url, 'GET', new URL(url).pathname);
  return { url, download, renderedAt };
}

/** How long after the answer's Date its Expires lies, in seconds. */
function expiresInS(reply: Reply): number {
  return (Date.parse(String(reply.headers.expires)) - Date.parse(String(reply.headers.date))) / 1000;
}

/** Raw HTML of `pages` pages, each saying its number. */
const pagesHtml = (pages: number) =>
  Array.from({ length: pages }, (_, i) => `<h1 style="page-break-after: ${i + 1 < pages ? 'always' : 'auto'}">Page ${i + 1}</h1>`).join('');

/** A page whose PDF is large: a canvas of random pixels, which no compression shrinks. */
const NOISE_HTML = `<h1>Noise</h1><canvas id="c" width="400" height="400"></canvas><script>
const ctx = document.getElementById('c').getContext('2d');
const image = ctx.createImageData(400, 400);
for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
ctx.putImageData(image, 0, 0);
</script>`;

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startChild(args: string[], env: Record<string, string | undefined>): Promise<{ serve: ServeProcess; key: string }> {
  const folder = await dataDirWithTeam('acme');
  const serve = await startServeProcess({ dataDir: folder.dataDir, args, env: { ...NO_SETTINGS, ...env } });
  cleanups.push(async () => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) await stopServe(serve);
    for (const dir of [serve.dataDir, serve.tmpDir]) fs.rmSync(dir, { recursive: true, force: true });
  });
  return { serve, key: folder.key };
}

/** The child started with no settings, and a render on it that waits for the default deadline. */
let defaults: { serve: ServeProcess; key: string };
let stalled: Promise<{ reply: Reply; ms: number }>;

before(async () => {
  // An image that never loads: the render waits for it until the default deadline.
  const stallSockets = new Set<Socket>();
  const stall = http.createServer(() => {});
  stall.on('connection', (socket) => {
    stallSockets.add(socket);
    socket.on('close', () => stallSockets.delete(socket));
  });
  await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of stallSockets) socket.destroy();
    await new Promise((resolve) => stall.close(resolve));
  });
  // Only the network is opened (to reach the stalling image); no limit is set.
  defaults = await startChild(['--allow-host', '127.0.0.1'], {});
  const warm = await callService(defaults.serve.url, 'POST', '/api/generate', { key: defaults.key, body: { html: '<h1>Warm</h1>' } });
  assert.equal(warm.status, 200, describeReply(warm));
  // Started first and read last: its 30 s pass while the other tests run.
  const started = performance.now();
  const url = `http://127.0.0.1:${(stall.address() as AddressInfo).port}/never.png`;
  stalled = callService(defaults.serve.url, 'POST', '/api/generate', { key: defaults.key, body: { html: `<h1>Stalled</h1><img src="${url}">` } }).then((reply) => ({
    reply,
    ms: performance.now() - started,
  }));
});

const ways: Array<{ name: string; publicUrl: string; args: string[]; env: Record<string, string> }> = [
  {
    name: 'small values by flag',
    publicUrl: 'https://pdf-by-flag.example.test:8443',
    args: [
      '--max-body-size', '4KiB',
      '--max-upload-size', '32KiB',
      '--render-timeout', `${SMALL.deadlineS}s`,
      '--url-ttl', `${SMALL.ttlS}s`,
      '--public-url', 'https://pdf-by-flag.example.test:8443',
      '--max-pages', String(SMALL.maxPages),
      '--max-pdf-size', '64KiB',
      '--max-props-depth', String(SMALL.maxPropsDepth),
    ],
    env: {},
  },
  {
    name: 'small values by IMPRINT_* variable',
    publicUrl: 'https://pdf-by-env.example.test:8443',
    args: [],
    env: {
      IMPRINT_MAX_BODY_SIZE: '4KiB',
      IMPRINT_MAX_UPLOAD_SIZE: '32KiB',
      IMPRINT_RENDER_TIMEOUT: `${SMALL.deadlineS}s`,
      IMPRINT_URL_TTL: `${SMALL.ttlS}s`,
      IMPRINT_PUBLIC_URL: 'https://pdf-by-env.example.test:8443',
      IMPRINT_MAX_PAGES: String(SMALL.maxPages),
      IMPRINT_MAX_PDF_SIZE: '64KiB',
      IMPRINT_MAX_PROPS_DEPTH: String(SMALL.maxPropsDepth),
    },
  },
];

for (const way of ways) {
  describe(`imprint serve with ${way.name}`, () => {
    let serve: ServeProcess;
    let key: string;

    before(async () => {
      ({ serve, key } = await startChild(way.args, way.env));
      // The browser's launch counts against a render's deadline, and this one is short: the
      // first renders may miss it on a loaded machine. What follows needs a warm browser.
      let warm = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: '<h1>Warm</h1>' } });
      for (let attempt = 1; warm.status === 504 && attempt < 5; attempt++) warm = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: '<h1>Warm</h1>' } });
      assert.equal(warm.status, 200, describeReply(warm));
    });

    test('the render body limit: 413 one byte past it', async () => {
      await expectBodyLimit(serve, key, '/api/generate', SMALL.bodyBytes, '4 KiB');
    });

    test('the upload limit: a publish body past the render body limit is read, 413 one byte past its own', async () => {
      await expectBodyLimit(serve, key, '/api/templates', SMALL.uploadBytes, '32 KiB', '"id":"x","artifact":5');
    });

    test('the render deadline: a page that never finishes answers 504 at it', async (t) => {
      const started = performance.now();
      const reply = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: '<h1>Spinning</h1><script>while (true) {}</script>' } });
      const ms = performance.now() - started;
      expectError(reply, 504, new RegExp(`did not finish within ${SMALL.deadlineS} s\\b`));
      assert.ok(ms >= SMALL.deadlineS * 1000 - 50, `answered after ${Math.round(ms)} ms, before the deadline`);
      t.diagnostic(`504 after ${Math.round(ms)} ms`);
    });

    test('the page limit: 422 one page past it, a document at it renders', async () => {
      const at = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: pagesHtml(SMALL.maxPages) } });
      assert.equal(at.status, 200, describeReply(at));
      assert.equal(pdfInfo(at.body).pages, SMALL.maxPages);
      const over = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: pagesHtml(SMALL.maxPages + 1) } });
      expectError(over, 422, new RegExp(`${SMALL.maxPages + 1} pages, more than the ${SMALL.maxPages} pages`));
    });

    test('the PDF size limit: 422 for a document past it, a small one renders', async () => {
      const small = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: '<h1>Small</h1>' } });
      assert.equal(small.status, 200, describeReply(small));
      assert.ok(small.body.length < SMALL.maxPdfBytes, `the small PDF is ${small.body.length} bytes`);
      const big = await callService(serve.url, 'POST', '/api/generate', { key, body: { html: NOISE_HTML } });
      expectError(big, 422, /larger than the 64 KiB per document/);
    });

    test('the props depth limit: 400 one level past it, before the template is even looked up', async () => {
      const at = await callService(serve.url, 'POST', '/api/documents/no-such-template', { key, body: { props: nested(SMALL.maxPropsDepth) } });
      assert.equal(at.status, 404, describeReply(at));
      const over = await callService(serve.url, 'POST', '/api/documents/no-such-template', { key, body: { props: nested(SMALL.maxPropsDepth + 1) } });
      expectError(over, 400, new RegExp(`nest more than ${SMALL.maxPropsDepth} levels deep`));
    });

    test('the public URL and the URL lifetime: the json result is under the public URL, and stops working once its lifetime is over', async (t) => {
      const { url, download, renderedAt } = await jsonResult(serve, key, 'Short-lived');
      assert.ok(url.startsWith(`${way.publicUrl}/api/files/`), url);
      assert.equal(download.status, 200, describeReply(download));
      assert.ok(isPdf(download.body));
      assert.match(pdfText(download.body), /Short-lived/);
      const lifetime = expiresInS(download);
      assert.ok(Math.abs(lifetime - SMALL.ttlS) <= 2, `Expires is ${lifetime} s after Date, not ${SMALL.ttlS} s`);
      let last = download;
      const gone = await eventually(async () => (last = await callService(serve.url, 'GET', new URL(url).pathname)).status === 404, SMALL.ttlS * 1000 + 30_000);
      assert.ok(gone, `the URL still answers ${last.status} ${Math.round((Date.now() - renderedAt) / 1000)} s after the render`);
      const aliveForS = (Date.now() - renderedAt) / 1000;
      assert.ok(aliveForS >= SMALL.ttlS - 1, `gone after ${aliveForS} s, before its ${SMALL.ttlS} s lifetime`);
      t.diagnostic(`the URL answered 404 ${aliveForS.toFixed(1)} s after the render (lifetime ${SMALL.ttlS} s)`);
    });
  });
}

describe('imprint serve with no settings: the defaults', () => {
  let serve: ServeProcess;
  let key: string;
  before(() => void ({ serve, key } = defaults));

  test('the render body limit is 10 MiB', async () => {
    await expectBodyLimit(serve, key, '/api/generate', 10 * MiB, '10 MiB');
  });

  test('the upload limit is 50 MiB', async () => {
    await expectBodyLimit(serve, key, '/api/templates', 50 * MiB, '50 MiB', '"id":"x","artifact":5');
  });

  test('the props depth limit is 32', async () => {
    const at = await callService(serve.url, 'POST', '/api/documents/no-such-template', { key, body: { props: nested(32) } });
    assert.equal(at.status, 404, describeReply(at));
    const over = await callService(serve.url, 'POST', '/api/documents/no-such-template', { key, body: { props: nested(33) } });
    expectError(over, 400, /nest more than 32 levels deep/);
  });

  test('a json result is under the listening address and works for 24 h', async () => {
    const { url, download } = await jsonResult(serve, key, 'Long-lived');
    assert.ok(url.startsWith(`${serve.url}/api/files/`), url);
    assert.equal(download.status, 200, describeReply(download));
    assert.match(pdfText(download.body), /Long-lived/);
    const lifetime = expiresInS(download);
    assert.ok(Math.abs(lifetime - 24 * 3600) <= 60, `Expires is ${lifetime} s after Date, not 24 h`);
  });

  test('the render deadline is 30 s: a render waiting on an image that never loads answers 504 then', async (t) => {
    const { reply, ms } = await stalled;
    expectError(reply, 504, /did not finish within 30 s\b/);
    assert.ok(ms >= 30_000 - 50, `answered after ${Math.round(ms)} ms, before the 30 s deadline`);
    t.diagnostic(`504 after ${Math.round(ms)} ms`);
  });
});
