/**
 * Part B "render time": a render that runs past its bound answers 504 with an error object,
 * counts nothing, and leaves the service healthy. The service runs with a short bound (the
 * contract's default is 30 s) and the page waits on an image that never arrives.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { describeReply, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let team: { name: string; key: string };
let stalling: http.Server;
const sockets = new Set<Socket>();
let stallUrl: string;

before(async () => {
  // The stalling server is on loopback: the operator lets renders reach it (--allow-host), or the
  // service's egress policy refuses the image at once and the page finishes in time.
  service = await startTestService({ renderTimeoutMs: 2000, net: { allow: ['127.0.0.1'] } });
  team = await service.team('slow');
  // Accepts the request and never answers it.
  stalling = http.createServer(() => {});
  stalling.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
});

after(async () => {
  await service?.close();
  for (const socket of sockets) socket.destroy();
  stalling?.close();
});

test('504 with an error object when the render runs past its time, then the service still renders', async () => {
  const slow = await service.call('POST', '/api/generate', { key: team.key, body: { html: `<h1>Never done</h1><img src="${stallUrl}/never.png">` } });
  assert.equal(slow.status, 504, describeReply(slow));
  const body = slow.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId']);
  assert.equal(body.code, 'RENDER_TIMEOUT');
  assert.match(body.error, /did not finish within 2 s/);

  const team_ = (await service.operator.getTeam('slow'))!;
  assert.equal(await service.operator.usage(team_.id), 0, 'a timed-out render is not counted');

  const health = await service.call('GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  const quick = await service.call('POST', '/api/generate', { key: team.key, body: { html: '<h1>Still rendering</h1>' } });
  assert.equal(quick.status, 200, describeReply(quick));
  assert.match(pdfText(quick.body), /Still rendering/);
  assert.equal(await service.operator.usage(team_.id), 1);
});
