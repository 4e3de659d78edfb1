/**
 * Issue 5, outbound requests of a page: the service's own browsers go through the egress
 * proxy, so raw HTML's sub-resources, frames, fetches and WebSockets reach only what the
 * operator's policy allows. A canary on loopback hears nothing by default, and hears the same
 * page once the operator allows private addresses (so the refusal can fail).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { startCanary, type Canary } from './helpers/canary.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

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

  async function render(service: TestService) {
    const { key } = await service.team('egress');
    const reply = await service.call('POST', '/api/generate', { key, body: { html: probingHtml(canary.url) } });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(pdfText(reply.body), /egress probe/);
  }

  test('by default no request of the page reaches a loopback server', async () => {
    const service = await startTestService({ ownBrowser: { env: {} } });
    try {
      await render(service);
      assert.deepEqual(canary.requests, []);
      assert.equal(canary.connections(), 0);
      assert.ok(
        service.logs.some((line) => line.includes('egress denied')),
        'the denials are logged for the operator',
      );
    } finally {
      await service.close();
    }
  });

  test('with --allow-private the same page does reach it', async () => {
    const service = await startTestService({ ownBrowser: { env: {} }, net: { allowPrivate: true } });
    try {
      await render(service);
      assert.ok(canary.requests.some((r) => r.startsWith('GET /img')), `requests: ${canary.requests.join(', ')}`);
      assert.ok(canary.requests.some((r) => r.startsWith('GET /css')));
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
    const service = await startTestService({ ownBrowser: { env: {} }, net: { allowPrivate: true } });
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
    const service = await startTestService({ ownBrowser: { env: {} }, net: { allow: ['127.0.0.1'] } });
    try {
      assert.ok((await renderBeacon(service)) > 0, 'the canary was reached');
      assert.ok(canary.requests.some((request) => request.startsWith('GET /fetch')), `requests: ${canary.requests.join(', ')}`);
      assert.ok(canary.requests.some((request) => request.startsWith('GET /ws')), `requests: ${canary.requests.join(', ')}`);
    } finally {
      await service.close();
    }
  });
});
