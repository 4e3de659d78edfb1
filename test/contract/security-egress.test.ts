/**
 * Issue 5, outbound requests of a page: the service's own browsers go through the egress
 * proxy, so raw HTML's sub-resources, frames, fetches and WebSockets reach only what the
 * operator's policy allows. A canary on loopback hears nothing by default, and hears every one
 * of the same page's requests once the operator allows private addresses (so each refusal can
 * fail). An A2 `url` render goes through the same proxy: on a real `imprint serve`, a page the
 * url check lets through still reaches only what the policy allows for its sub-resources and
 * redirects.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { startCanary, CANARY_TEXT, type Canary } from './helpers/canary.js';
import { callService, dataDirWithTeam, eventually, startServeProcess, stopServe, type ServeProcess } from './helpers/faults.js';
import { describeReply, startTestService, fixtureArtifact, type TestService } from './helpers/service.js';

/** The request paths probingHtml sends, each of which the default policy must refuse and --allow-private let through. */
const PROBED_PATHS = ['/css', '/img', '/frame', '/object', '/fetch', '/xhr', '/ws', '/beacon'];

/** The paths among the canary's requests ("GET /img (host)"). */
const requestedPaths = (canary: Canary) => canary.requests.map((request) => request.split(' ')[1]);

/** Every way a page can send a request without a top-level `url`, in one document. */
function probingHtml(target: string): string {
  return `<!doctype html><html><head>
<link rel="stylesheet" href="${target}/css">
</head><body>
<p>egress probe</p>
<img src="${target}/img">
<iframe src="${target}/frame"></iframe>
<object data="${target}/object"></object>
<script>
  fetch('${target}/fetch').catch(() => {});
  const xhr = new XMLHttpRequest(); xhr.open('GET', '${target}/xhr'); xhr.send();
  try { new WebSocket('${target.replace('http', 'ws')}/ws'); } catch {}
  navigator.sendBeacon('${target}/beacon', 'x');
</script>
</body></html>`;
}

describe('raw HTML sub-resources through the egress proxy', () => {
  let canary: Canary;
  before(async () => {
    canary = await startCanary();
  });
  after(() => canary.close());

  /** Renders the probing page; the canary's record starts empty for it (its connections are counted from here). */
  async function render(service: TestService): Promise<{ connections: () => number }> {
    canary.requests.length = 0;
    const connectionsBefore = canary.connections();
    const { key } = await service.team('egress');
    const reply = await service.call('POST', '/api/generate', { key, body: { html: probingHtml(canary.url) } });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(pdfText(reply.body), /egress probe/);
    return { connections: () => canary.connections() - connectionsBefore };
  }

  test('by default no request of the page reaches a loopback server', async () => {
    const service = await startTestService();
    try {
      const rendered = await render(service);
      // The page's scripts send some requests after the PDF is printed: wait until the proxy has
      // refused one request per probed path, so that "nothing arrived" is not "not yet".
      const denials = () => service.logs.filter((line) => line.includes('egress denied') && line.includes(`"port":${canary.port}`)).length;
      assert.ok(await eventually(() => denials() >= PROBED_PATHS.length, 15_000), `the proxy refused ${denials()} of the ${PROBED_PATHS.length} probes`);
      assert.deepEqual(canary.requests, []);
      assert.equal(rendered.connections(), 0);
    } finally {
      await service.close();
    }
  });

  test('with --allow-private the same page does reach it', async () => {
    const service = await startTestService({ net: { allowPrivate: true } });
    try {
      await render(service);
      // Each path the default refused reaches the canary here: every refusal above can fail.
      const missing = () => PROBED_PATHS.filter((probe) => !requestedPaths(canary).includes(probe));
      await eventually(() => missing().length === 0, 15_000);
      assert.deepEqual(missing(), [], `requests: ${canary.requests.join(', ')}`);
    } finally {
      await service.close();
    }
  });
});

/**
 * Published templates: no network at all. Their HTTP requests are refused in the page (request
 * interception); what interception does not see, a WebSocket and WebRTC's TURN over TCP, goes
 * through the browser's own proxy, whose policy is the operator's allow-list only. So even
 * where raw HTML may reach private addresses, a template reaches nothing, unless the operator
 * allow-lists the host (the control, which shows the refusal can fail).
 */
describe('published templates behind the template proxy', () => {
  let canary: Canary;
  before(async () => {
    canary = await startCanary();
  });
  after(() => canary.close());

  async function renderBeacon(service: TestService): Promise<number> {
    const { key } = await service.team('beacon');
    const published = await service.call('POST', '/api/templates', { key, body: { id: 'beacon', artifact: await fixtureArtifact('Beacon.tsx') } });
    assert.equal(published.status, 201, describeReply(published));
    const before = canary.connections();
    const reply = await service.call('POST', '/api/documents/beacon', { key, body: { props: { canaryUrl: canary.url } } });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(pdfText(reply.body), /beacon done/);
    return canary.connections() - before;
  }

  test('a WebSocket and a TURN server on loopback stay unreached, even with --allow-private', async () => {
    const service = await startTestService({ net: { allowPrivate: true } });
    try {
      assert.equal(await renderBeacon(service), 0);
      assert.ok(
        service.logs.some((line) => line.includes('egress denied') && line.includes('"audience":"template"')),
        'the template proxy logged the refusal',
      );
    } finally {
      await service.close();
    }
  });

  test('an allow-listed host is reached by the same template, by fetch and WebSocket', async () => {
    const service = await startTestService({ net: { allow: ['127.0.0.1'] } });
    try {
      assert.ok((await renderBeacon(service)) > 0, 'the canary was reached');
      assert.ok(canary.requests.some((request) => request.startsWith('GET /fetch')), `requests: ${canary.requests.join(', ')}`);
      assert.ok(canary.requests.some((request) => request.startsWith('GET /ws')), `requests: ${canary.requests.join(', ')}`);
    } finally {
      await service.close();
    }
  });
});

/**
 * A2 `url` renders on `imprint serve` (the built CLI, as operators run it, with its real egress
 * proxies). The url itself is judged at the door (security-url.test.ts); here it is let through
 * by `--allow-host 127.0.0.1`, and what the page at it asks for next is the proxy's to judge:
 * a sub-resource and a redirect to `localhost` (a loopback name, which an address entry does
 * not open) never reach the canary. The same renders under `--allow-private` do reach it, so
 * each refusal can fail.
 */
describe('A2 url renders through the egress proxy of imprint serve', () => {
  let canary: Canary;
  let site: http.Server;
  let siteUrl: string;

  before(async () => {
    canary = await startCanary();
    // The page the url names: on an allowed address, asking for the canary by a loopback name.
    site = http.createServer((req, res) => {
      if (req.url === '/redirect') return void res.writeHead(302, { location: `http://localhost:${canary.port}/redirected` }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><h1>Page at the url</h1>
<img src="http://localhost:${canary.port}/by-name.png">
<script>fetch('http://localhost:${canary.port}/by-name-fetch').catch(() => {});</script>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  after(async () => {
    await canary.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  async function withServe(args: string[], use: (serve: ServeProcess, key: string) => Promise<void>) {
    canary.requests.length = 0;
    const folder = await dataDirWithTeam('acme');
    const serve = await startServeProcess({ dataDir: folder.dataDir, args: [...args, '--log-level', 'info'], env: { IMPRINT_ALLOW_HOSTS: undefined, IMPRINT_ALLOW_PRIVATE: undefined } });
    try {
      await use(serve, folder.key);
    } finally {
      await stopServe(serve);
      for (const dir of [serve.dataDir, serve.tmpDir]) fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  const generate = (serve: ServeProcess, key: string, url: string) => callService(serve.url, 'POST', '/api/generate', { key, body: { url } });

  test('--allow-host 127.0.0.1: the page renders, its requests and its redirect to localhost are refused by the proxy', async () => {
    const connectionsBefore = canary.connections();
    await withServe(['--allow-host', '127.0.0.1'], async (serve, key) => {
      const page = await generate(serve, key, `${siteUrl}/page`);
      assert.equal(page.status, 200, describeReply(page));
      assert.match(pdfText(page.body), /Page at the url/);
      const redirected = await generate(serve, key, `${siteUrl}/redirect`);
      assert.doesNotMatch(redirected.status === 200 ? pdfText(redirected.body) : redirected.text(), new RegExp(CANARY_TEXT));
      // Three requests for localhost (the image, the fetch, the redirect's target): wait for the
      // proxy to have refused them all before reading the canary's silence.
      const refusals = () => serve.output().split('\n').filter((line) => line.includes('egress denied') && line.includes('"host":"localhost"')).length;
      assert.ok(await eventually(() => refusals() >= 3, 15_000), `the proxy refused ${refusals()} requests for localhost:\n${serve.output().slice(-2000)}`);
      assert.deepEqual(canary.requests, []);
      assert.equal(canary.connections(), connectionsBefore);
    });
  });

  test('--allow-private: the same page reaches the canary by name, and the redirect renders the canary page', async () => {
    await withServe(['--allow-private'], async (serve, key) => {
      const page = await generate(serve, key, `${siteUrl}/page`);
      assert.equal(page.status, 200, describeReply(page));
      assert.match(pdfText(page.body), /Page at the url/);
      const redirected = await generate(serve, key, `${siteUrl}/redirect`);
      assert.equal(redirected.status, 200, describeReply(redirected));
      assert.match(pdfText(redirected.body), new RegExp(CANARY_TEXT));
      const missing = () => ['/by-name.png', '/by-name-fetch', '/redirected'].filter((probe) => !requestedPaths(canary).includes(probe));
      await eventually(() => missing().length === 0, 15_000);
      assert.deepEqual(missing(), [], `requests: ${canary.requests.join(', ')}`);
    });
  });
});
