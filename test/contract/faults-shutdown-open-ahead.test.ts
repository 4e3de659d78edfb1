/**
 * SIGTERM while a warm render is in flight: the render finishes, and the page the pool then
 * opens ahead of the template's next render (PoolSettings.openAhead) is given up, not left
 * waiting on a browser that is closing. Before, the pool closed the browser while that page was
 * being created; puppeteer's wait for the new tab never got its answer and held the stopped
 * service's process open for its 30 s timeout (found when the contract suite moved onto the
 * installed `imprint serve`). The service must exit 0 within the browser's close grace, with
 * nothing logged about the page opened ahead.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { isPdf, pdfText } from '../helpers/pdf.js';
import { callService, dataDirWithTeam, eventually, startServeProcess, stopServe, type ServeProcess } from './helpers/faults.js';
import { describeReply, FIXTURES } from './helpers/service.js';

/** Far below the 30 s that puppeteer's orphaned wait held the process, far above a normal stop (under 1 s). */
const EXIT_WITHIN_MS = 15_000;

let serve: ServeProcess | undefined;
let key: string;
let image: http.Server;
let imageUrl: string;
let imageRequests = 0;
const held: http.ServerResponse[] = [];
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

before(async () => {
  image = http.createServer((req, res) => {
    imageRequests++;
    if (req.url?.startsWith('/held')) held.push(res);
    else res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1PX);
  });
  await new Promise<void>((resolve) => image.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(image.address() as AddressInfo).port}`;
  const team = await dataDirWithTeam();
  key = team.key;
  serve = await startServeProcess({ dataDir: team.dataDir, args: ['--allow-host', '127.0.0.1', '--log-level', 'info'] });
  const published = await runCli(['publish', path.join(FIXTURES, 'Picture.tsx'), '--id', 'picture', '--no-typecheck', '--api-url', serve.url, '--api-key', key]);
  assert.equal(published.code, 0, published.describe());
});

after(async () => {
  for (const res of held) res.end();
  image.close();
  if (serve && serve.child.exitCode === null) await serve.stop();
});

test('SIGTERM during a warm render: the render answers with its PDF and the service exits 0 within the grace, nothing logged of the page opened ahead', async () => {
  const render = (src: string, caption: string) => callService(serve!.url, 'POST', '/api/documents/picture', { key, body: { props: { src, caption } } });
  // A first render leaves the template's page warm; the next one on it is what opens another ahead.
  const first = await render(`${imageUrl}/quick.png`, 'First');
  assert.equal(first.status, 200, describeReply(first));

  const inFlight = render(`${imageUrl}/held.png`, 'In flight');
  assert.ok(await eventually(() => held.length === 1, 60_000), `the warm render asked for its image (${imageRequests} image requests)`);
  const stopping = stopServe(serve!, EXIT_WITHIN_MS + 30_000);
  // Draining: the service takes no new connection once it has the signal; then the image comes.
  assert.ok(await eventually(() => /SIGTERM/.test(serve!.output()), 10_000), serve!.output());
  held[0].writeHead(200, { 'content-type': 'image/png' }).end(PNG_1PX);

  const answered = await inFlight;
  assert.equal(answered.status, 200, describeReply(answered));
  assert.ok(isPdf(answered.body));
  assert.match(await pdfText(answered.body), /In flight/);

  const stopped = await stopping;
  assert.deepEqual({ code: stopped.code, signal: stopped.signal }, { code: 0, signal: null }, serve!.output());
  assert.ok(stopped.ms < EXIT_WITHIN_MS, `exited ${Math.round(stopped.ms)} ms after SIGTERM, within ${EXIT_WITHIN_MS} ms:\n${serve!.output().slice(-3000)}`);
  assert.doesNotMatch(serve!.output(), /opening a page ahead failed/);
});
