/**
 * Stamps and encryption through the real service (the installed package's `imprint serve` on
 * SQLite): a render's stamp lands on exactly the pages asked and its encryption is AES-256 R6
 * with the permissions asked (qpdf, pdftotext); encryption with pdfa or einvoice is refused with
 * 400 before anything renders; a job with `encrypt` renders encrypted rows, and once it has
 * finished neither its stored record (read from the SQLite file), nor its webhook body, nor
 * its status, nor the service's log holds a password.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openSqlite } from '../../src/core/sqlite-driver.js';
import { waitFor } from '../helpers/jobs.js';
import { withFile } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

const USER = 'open-sesame-4821';
const OWNER = 'owner-secret-9377';
const ENCRYPT = { userPassword: USER, ownerPassword: OWNER, permissions: { print: 'low', modify: 'none', copy: 'no', annotate: 'yes' } };

let service: TestService;
let acme: { key: string };
let receiver: http.Server;
const received: string[] = [];

before(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  service = await startTestService({ backend: 'sqlite', net: { allow: ['127.0.0.1'] } });
  acme = await service.team('acme');
  assert.equal((await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'pages', artifact: await fixtureArtifact('Pages.tsx') } })).status, 201);
  assert.equal((await service.call('POST', '/api/webhook-secret', { key: acme.key, body: {} })).status, 201);
});

after(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await service?.close();
});

const showEncryption = (pdf: Buffer, password: string) => withFile(pdf, (file) => execFileSync('qpdf', ['--show-encryption', `--password=${password}`, file], { timeout: 30_000 }).toString());
const pageText = (pdf: Buffer, page: number) => withFile(pdf, (file) => execFileSync('pdftotext', ['-upw', USER, '-f', String(page), '-l', String(page), file, '-'], { timeout: 30_000 }).toString());

test('a render with stamp and encrypt: DRAFT on page 2 alone, AES-256 R6 with the permissions asked, closed without the password', { timeout: 120_000 }, async () => {
  const reply = await service.call('POST', '/api/documents/pages', { key: acme.key, body: { props: { pages: 3 }, stamp: { text: 'DRAFT', pages: '2' }, encrypt: ENCRYPT } });
  assert.equal(reply.status, 200, describeReply(reply));
  const shown = showEncryption(reply.body, OWNER);
  assert.match(shown, /^R = 6$/m);
  assert.match(shown, /^file encryption method: AESv3$/m);
  assert.match(shown, /^print low resolution: allowed$/m);
  assert.match(shown, /^print high resolution: not allowed$/m);
  assert.match(shown, /^extract for any purpose: not allowed$/m);
  assert.match(shown, /^modify other: not allowed$/m);
  assert.match(shown, /^modify annotations: allowed$/m);
  assert.deepEqual([1, 2, 3].map((page) => pageText(reply.body, page).includes('DRAFT')), [false, true, false]);
  const locked = withFile(reply.body, (file) => spawnSync('pdfinfo', [file], { timeout: 30_000 }));
  assert.notEqual(locked.status, 0, 'pdfinfo opens it without a password');
  assert.match(locked.stderr.toString(), /Incorrect password/);
});

test('encrypt with pdfa or einvoice is refused with 400 naming PDF/A, nothing rendered', { timeout: 60_000 }, async () => {
  for (const extra of [{ pdfa: '2b' }, { pdfa: '3b' }]) {
    const reply = await service.call('POST', '/api/documents/pages', { key: acme.key, body: { props: { pages: 1 }, encrypt: ENCRYPT, ...extra } });
    assert.equal(reply.status, 400, describeReply(reply));
    assert.equal(reply.json().code, 'INVALID_INPUT');
    assert.match(reply.json().error, /PDF\/A forbids encryption/);
  }
  const invoice = await service.call('POST', '/api/documents/pages', { key: acme.key, body: { props: { pages: 1 }, encrypt: ENCRYPT, einvoice: 'factur-x' } });
  assert.equal(invoice.status, 400, describeReply(invoice));
  assert.match(invoice.json().error, /e-invoice .*cannot be encrypted/);
  const job = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'pages', rows: [{ pages: 1 }], encrypt: ENCRYPT, pdfa: '2b' } });
  assert.equal(job.status, 400, describeReply(job));
});

test("a job with encrypt: its rows are encrypted; once finished, no password in its stored record, webhook body, status or the service's log", { timeout: 180_000 }, async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const submitted = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'pages', rows: [{ pages: 1 }, { pages: 2 }], encrypt: ENCRYPT, webhook: { url } } });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const status = async () => (await service.call('GET', `/api/jobs/${id}`, { key: acme.key })).json();
  const job = await waitFor(status, (seen) => seen.webhook?.attempts.length === 1, 'the job to finish and its webhook to be delivered');
  assert.equal(job.status, 'completed', JSON.stringify(job));

  const row = await service.call('GET', new URL(job.rows[1].url).pathname);
  assert.equal(row.status, 200, describeReply(row));
  assert.match(showEncryption(row.body, OWNER), /^R = 6$/m, 'the row was rendered with the job\'s encryption');

  const db = openSqlite(path.join(service.dataDir, 'imprint.db'), { readOnly: true });
  const stored = db.prepare('SELECT spec, webhook_event FROM jobs WHERE id = ?').get(id) as { spec: string; webhook_event: string };
  db.close();
  const spec = JSON.parse(stored.spec);
  assert.deepEqual(spec.options.encrypt, { permissions: { print: 'low', modify: 'none', copy: false, annotate: true } }, 'the permissions stay; the passwords are gone');
  for (const [where, text] of [
    ['the stored spec', stored.spec],
    ['the stored webhook event', stored.webhook_event],
    ['the webhook body', received.join('\n')],
    ['the job status', JSON.stringify(job)],
    ["the service's log", service.logs.join('\n')],
  ] as const) {
    assert.ok(!text.includes(USER) && !text.includes(OWNER), `${where} holds a password`);
  }
  assert.equal(received.length, 1);
});
