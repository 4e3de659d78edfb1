/**
 * Jobs across nodes (api.md Part D, PostgreSQL, the job tables as the queue): two `imprint
 * serve` children on one throwaway database both take a job's rows; one is killed with SIGKILL
 * mid-job (its browsers too), with rows in its hands (checked: they are claimed again), and the
 * other finishes the job: no row missing, every issued file accounted for (one per row, plus
 * at most one per row the kill cut off), the team's count equal to the PDFs delivered, and the
 * job's webhook delivered once, signed (a quiet period after it sees no second one). The
 * killed node, restarted, joins the job again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { FINAL, INVOICE_FILE, invoiceRow, waitFor } from '../helpers/jobs.js';
import { pdfText } from '../helpers/pdf.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startServeProcess, stopServe, type ServeProcess } from './helpers/faults.js';
import { callAt as call, describeReply, replyOf } from './helpers/service.js';

const ROWS = 80;
let cluster: PostgresCluster;
let databaseUrl: string;
// PDFs and artifacts still live in a data folder the nodes share (the records are in PostgreSQL).
const dataDir = tempDir('imprint-jobs-pg-');
const children: ServeProcess[] = [];
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
// The webhook receiver, on loopback: the nodes are started with --allow-host 127.0.0.1 for it.
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
});

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cluster = await startPostgres();
  databaseUrl = await cluster.createDatabase();
});

after(async () => {
  for (const child of children) {
    await stopServe(child);
    fs.rmSync(child.tmpDir, { recursive: true, force: true });
  }
  await cluster?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function node(): Promise<ServeProcess> {
  const child = await startServeProcess({ dataDir, args: ['--database', databaseUrl, '--concurrency', '2', '--job-lease', '4s', '--allow-host', '127.0.0.1'] });
  children.push(child);
  return child;
}

test('two nodes share a job; the one killed mid-job leaves its rows to the other and is restarted; each row made and counted once', { timeout: 300_000 }, async () => {
  const env = { IMPRINT_DATA_DIR: dataDir, IMPRINT_DATABASE_URL: databaseUrl };
  assert.equal((await runCli(['team', 'create', 'acme', '--limit', '1000'], { env })).code, 0);
  const created = await runCli(['key', 'create', '--team', 'acme'], { env });
  assert.equal(created.code, 0, created.describe());
  const key = created.stdout.toString().trim();

  // Settled, not all: a node that failed to start does not leave the other unawaited.
  const [first, second] = (await Promise.allSettled([node(), node()])).map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : assert.fail(String(outcome.reason))));
  const artifact = (await bundleTemplate(INVOICE_FILE)).artifact;
  assert.equal((await call(first, 'POST', '/api/templates', key, { id: 'invoice', artifact })).status, 201);
  const rows = Array.from({ length: ROWS }, (_, index) => invoiceRow(index + 1));
  const secret = (await call(first, 'POST', '/api/webhook-secret', key, {})).json().secret as string;
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const submitted = await call(first, 'POST', '/api/jobs', key, { template: 'invoice', rows, name: '{{invoiceNo}}.pdf', webhook: { url: webhookUrl } });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const status = (at: ServeProcess) => async () => (await call(at, 'GET', `/api/jobs/${id}`, key)).json();
  // The job's stream from the node that survives: its own rows as it finishes them, the other
  // nodes' rows from the store, through the kill, to the job's end.
  const streamed = (async () => {
    const reply = await request(`${second.url}/api/jobs/${id}/stream`, { headers: { authorization: `Bearer ${key}` } });
    const text = await reply.body.text();
    assert.equal(reply.statusCode, 200, text.slice(0, 500));
    return text.trimEnd().split('\n').map((line) => JSON.parse(line));
  })();

  // Both nodes take rows; the one that took the job is killed with rows in its hands.
  await waitFor(status(second), (job) => job.done >= 10, 'the first rows');
  await first.kill();
  const atKill = await status(second)();
  assert.ok(atKill.done < ROWS, `the job finished before the kill (${atKill.done}/${ROWS})`);

  // The killed node is started again, as its operator would: it joins the survivor on the job.
  const restarted = await node();
  await waitFor(status(restarted), (seen) => FINAL.includes(seen.status), 'the surviving and the restarted node to finish the job');
  // Read through the survivor: the URLs it answers are under its own address.
  const job = await status(second)();
  assert.equal(job.status, 'completed', JSON.stringify({ ...job, rows: undefined }));
  assert.deepEqual([job.total, job.done, job.failed, job.cancelled], [ROWS, ROWS, 0, 0]);
  assert.deepEqual(
    job.rows.map((row: { row: number }) => row.row),
    rows.map((_, index) => index + 1),
  );
  // The killed node held rows: they were claimed again (a second attempt) and made once.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: again } = await db.query<{ row: number; attempt: number }>('SELECT row, attempt FROM job_rows WHERE job_id = $1 AND attempt > 1', [id]);
    console.log(`rows claimed again after the kill: ${JSON.stringify(again)}`);
    assert.ok(again.length > 0, 'the kill hit rows in flight: some were claimed again');
    // Every issued file accounted for: one per row (its own token), and the rest only from rows
    // the kill cut off after their PDF was stored (at most one each), never a row made twice.
    const { rows: files } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM issued_files');
    const tokens = new Set(job.rows.map((row: { url: string }) => row.url));
    assert.equal(tokens.size, ROWS, 'each row its own file');
    const cutOff = files[0].n - ROWS;
    assert.ok(cutOff >= 0 && cutOff <= again.length, `${files[0].n} issued files for ${ROWS} rows, ${again.length} of them cut off by the kill`);
    // A row cut off between its PDF's rename into place and its record's commit leaves a stored
    // PDF no record names (the file goes first: a record never names a file that is not whole).
    // Each row cut off by the kill leaves at most one PDF behind, recorded or not.
    const stored = fs.readdirSync(path.join(dataDir, 'files')).filter((name) => name.endsWith('.pdf')).length;
    assert.ok(stored >= files[0].n, `${stored} stored PDFs for ${files[0].n} issued files: every issued file is stored`);
    assert.ok(stored - ROWS <= again.length, `${stored} stored PDFs for ${ROWS} rows, ${again.length} of them cut off by the kill: at most one left behind by each`);
  } finally {
    await db.end();
  }
  const me = (await call(second, 'GET', '/api/me', key)).json();
  assert.equal(me.team.usedThisMonth, ROWS, 'the count is the PDFs delivered');
  // The webhook: one delivery, recorded in the job, verified with the team's secret.
  const delivered = await waitFor(status(second), (seen) => seen.webhook?.attempts.length >= 1, 'the webhook delivery');
  assert.deepEqual(delivered.webhook.attempts.map((attempt: { status: number }) => attempt.status), [204]);
  // A late duplicate (another node, a retry after success) would come within a quiet period.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.equal(received.length, 1, 'one delivery, and none after a quiet period of 3 s');
  const event = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>) as { type: string; data: { id: string; done: number } };
  assert.deepEqual([event.type, event.data.id, event.data.done], ['job.completed', id, ROWS]);
  const lines = await streamed;
  assert.deepEqual([lines[lines.length - 1].job?.status, lines[lines.length - 1].job?.done], ['completed', ROWS], 'the stream ends with the job over');
  const streamedRows = lines.filter((line) => line.row);
  assert.deepEqual(
    streamedRows.map((line) => line.row.row).sort((a, b) => a - b),
    rows.map((_, index) => index + 1),
    'the stream brought every row once, whichever node made it',
  );
  for (const row of job.rows) {
    assert.ok(row.url.startsWith(second.url), row.url);
    const pdf = await replyOf(await request(row.url));
    assert.equal(pdf.status, 200);
    const fromStream = streamedRows.find((line) => line.row.row === row.row);
    assert.deepEqual(fromStream.row, row, `row ${row.row}: the stream shows it as the status does`);
    assert.ok(Buffer.from(fromStream.pdf, 'base64').equals(pdf.body), `row ${row.row}: the stream's PDF is the download's`);
    assert.match(pdfText(pdf.body), new RegExp(`INV-${String(row.row).padStart(4, '0')}[\\s\\S]*Customer ${row.row} Ltd`), `row ${row.row}`);
  }
});
