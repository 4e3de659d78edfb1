/**
 * Merging through the real service (the installed package's `imprint serve` on SQLite): a part
 * is judged before anything prints, so a refused URL costs no print (the page the render would
 * load is never asked for); and a job's parts travel in its stored spec only while its rows
 * need them: its status, its listing and its webhook body show each part's name and size or
 * URL, never its bytes, and once the job has finished its stored record (read from the SQLite
 * file) no longer holds them.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openSqlite } from '../../src/core/sqlite-driver.js';
import { waitFor } from '../helpers/jobs.js';
import { pdfInfo } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let acme: { key: string };
let loopback: http.Server;
let base: string;
/** What the loopback server was asked for, and the webhook bodies it received. */
const asked: string[] = [];
const received: string[] = [];
let cover: Buffer;
let terms: Buffer;

before(async () => {
  loopback = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/hooks') {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      } else if (req.url === '/terms.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(terms);
      } else {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>The page</h1>');
      }
    });
  });
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
  service = await startTestService({ backend: 'sqlite', net: { allow: ['127.0.0.1'] } });
  acme = await service.team('acme');
  assert.equal((await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'pages', artifact: await fixtureArtifact('Pages.tsx') } })).status, 201);
  assert.equal((await service.call('POST', '/api/webhook-secret', { key: acme.key, body: {} })).status, 201);
  const render = async (pages: number) => {
    const reply = await service.call('POST', '/api/documents/pages', { key: acme.key, body: { props: { pages } } });
    assert.equal(reply.status, 200, describeReply(reply));
    return reply.body;
  };
  [cover, terms] = [await render(2), await render(1)];
});

after(async () => {
  loopback?.closeAllConnections();
  await new Promise<void>((resolve) => (loopback ? loopback.close(() => resolve()) : resolve()));
  await service?.close();
});

test('a part at a forbidden address is refused with 403 before the print: the page to print is never fetched', { timeout: 60_000 }, async () => {
  asked.length = 0;
  const reply = await service.call('POST', '/api/generate', { key: acme.key, body: { url: `${base}/page.html`, append: [{ url: 'http://10.20.30.40/terms.pdf' }] } });
  assert.equal(reply.status, 403, describeReply(reply));
  assert.equal(reply.json().code, 'URL_DENIED');
  assert.match(reply.json().error, /^append\[0\]: /);
  assert.equal(asked.length, 0, `the page was loaded (printed) although a part was refused: ${asked.join(', ')}`);

  // The same page with an allowed part: the page is fetched, and so is the part.
  const allowed = await service.call('POST', '/api/generate', { key: acme.key, body: { url: `${base}/page.html`, append: [{ url: `${base}/terms.pdf` }] } });
  assert.equal(allowed.status, 200, describeReply(allowed));
  assert.equal(pdfInfo(allowed.body).pages, 2);
  assert.ok(asked.includes('/page.html') && asked.includes('/terms.pdf'), JSON.stringify(asked));
});

test("a job's parts: shown by name and size, never their bytes; dropped from the stored spec once it has finished", { timeout: 180_000 }, async () => {
  const coverBase64 = cover.toString('base64');
  // Any stretch of the part's base64 is as telling as the whole of it.
  const marker = coverBase64.slice(200, 264);
  const submitted = await service.call('POST', '/api/jobs', {
    key: acme.key,
    body: { template: 'pages', rows: [{ pages: 1 }, { pages: 3 }], prepend: [{ pdf: coverBase64, name: 'cover.pdf' }], append: [{ url: `${base}/terms.pdf` }], webhook: { url: `${base}/hooks` } },
  });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const status = async () => (await service.call('GET', `/api/jobs/${id}`, { key: acme.key })).json();
  const job = await waitFor(status, (seen) => seen.webhook?.attempts.length === 1, 'the job to finish and its webhook to be delivered');
  assert.equal(job.status, 'completed', JSON.stringify(job));
  assert.deepEqual(job.parts, { prepend: [{ name: 'cover.pdf', bytes: cover.length }], append: [{ url: `${base}/terms.pdf` }] });

  for (const [index, pages] of [1, 3].entries()) {
    const row = await service.call('GET', new URL(job.rows[index].url).pathname);
    assert.equal(row.status, 200, describeReply(row));
    assert.equal(pdfInfo(row.body).pages, 2 + pages + 1, "the row was rendered with the job's parts");
  }

  const listing = await service.call('GET', '/api/jobs', { key: acme.key });
  assert.equal(listing.status, 200, describeReply(listing));
  const listed = (listing.json().jobs as { id: string; parts?: unknown }[]).find((entry) => entry.id === id);
  assert.deepEqual(listed?.parts, job.parts);
  assert.equal(received.length, 1);
  assert.deepEqual(JSON.parse(received[0]).data.parts, job.parts);

  const db = openSqlite(path.join(service.dataDir, 'imprint.db'), { readOnly: true });
  const stored = db.prepare('SELECT spec, webhook_event FROM jobs WHERE id = ?').get(id) as { spec: string; webhook_event: string };
  db.close();
  const spec = JSON.parse(stored.spec);
  assert.equal(spec.options.prepend, undefined, 'the finished job still stores its prepend');
  assert.equal(spec.options.append, undefined, 'the finished job still stores its append');
  assert.deepEqual(spec.parts, job.parts, 'what the job shows of its parts stays');
  for (const [where, text] of [
    ['the stored spec', stored.spec],
    ['the stored webhook event', stored.webhook_event],
    ['the webhook body', received.join('\n')],
    ['the job status', JSON.stringify(job)],
    ['the job listing', listing.text()],
    ["the service's log", service.logs.join('\n')],
  ] as const) {
    assert.ok(!text.includes(marker), `${where} holds the part's bytes`);
  }
});
