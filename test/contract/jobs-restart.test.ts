/**
 * A job outlives the service that runs it (api.md Part D, SQLite store): `imprint serve` as a
 * child process on one data folder is stopped mid-job (SIGTERM: the rows in progress finish,
 * the rest wait in the data folder) and later killed mid-job (SIGKILL: the rows it held come
 * back once their lease runs out: the kill is checked to have hit rows in flight); each time a
 * new service on the same folder finishes the job. No row is missing, every issued file is
 * accounted for (one per row, plus at most one per row the kill cut off), and the count
 * equals the PDFs delivered.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSqlite } from '../../src/core/sqlite-driver.js';
import { after, test } from 'node:test';
import { request } from 'undici';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { openStore } from '../../src/core/store/index.js';
import { tempDir } from '../helpers/cli.js';
import { FINAL, INVOICE_FILE, invoiceRow, waitFor } from '../helpers/jobs.js';
import { pdfText } from '../helpers/pdf.js';
import { dataDirWithTeam, startServeProcess, stopServe, type ServeProcess } from './helpers/faults.js';
import { callAt as call, describeReply, replyOf } from './helpers/service.js';

const ROWS = 60;
const dataDir = tempDir('imprint-jobs-restart-');
const children: ServeProcess[] = [];

after(async () => {
  for (const child of children) {
    await stopServe(child);
    fs.rmSync(child.tmpDir, { recursive: true, force: true });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function serve(): Promise<ServeProcess> {
  // Two slots, one for the job; a short lease so a killed service's rows come back soon.
  const child = await startServeProcess({ dataDir, args: ['--concurrency', '2', '--job-lease', '3s'] });
  children.push(child);
  return child;
}

/** The job as the data folder holds it, read while no service runs. */
async function stored(jobId: string) {
  const store = openStore({ dataDir });
  try {
    return { job: (await store.jobs.jobById(jobId))!, rows: await store.jobs.rows(jobId) };
  } finally {
    await store.close();
  }
}

test('a job survives a stop and a kill of its service: a new one on the same data folder finishes it', { timeout: 300_000 }, async () => {
  const { key } = await dataDirWithTeam('acme', dataDir);
  let node = await serve();
  const artifact = (await bundleTemplate(INVOICE_FILE)).artifact;
  assert.equal((await call(node, 'POST', '/api/templates', key, { id: 'invoice', artifact })).status, 201);
  const rows = Array.from({ length: ROWS }, (_, index) => invoiceRow(index + 1));
  const submitted = await call(node, 'POST', '/api/jobs', key, { template: 'invoice', rows, name: '{{invoiceNo}}.pdf' });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const status = (at: ServeProcess) => async () => (await call(at, 'GET', `/api/jobs/${id}`, key)).json();

  // SIGTERM mid-job: the service stops cleanly with the job unfinished in the data folder.
  await waitFor(status(node), (job) => job.done >= 5, 'the first rows');
  const stop = await stopServe(node);
  assert.equal(stop.code, 0, node.output());
  const afterStop = await stored(id);
  assert.equal(afterStop.job.status, 'running');
  assert.ok(afterStop.job.done < ROWS, `the job finished before the stop (${afterStop.job.done}/${ROWS})`);
  assert.equal(afterStop.rows.filter((row) => row.state === 'running').length, 0, 'a clean stop leaves no row claimed');

  // A new service goes on; SIGKILL it mid-job, with rows in its hands.
  node = await serve();
  await waitFor(status(node), (job) => job.done >= afterStop.job.done + 5, 'the job to resume');
  await node.kill();
  const afterKill = await stored(id);
  assert.ok(afterKill.job.done < ROWS, `the job finished before the kill (${afterKill.job.done}/${ROWS})`);
  const inFlight = afterKill.rows.filter((row) => row.state === 'running').length;
  assert.ok(inFlight > 0, 'the kill hit rows in flight: the killed service held rows');

  // A third finishes it, taking the killed service's rows once their lease has run out.
  node = await serve();
  const job = await waitFor(status(node), (seen) => FINAL.includes(seen.status), 'the job to finish');
  assert.equal(job.status, 'completed', JSON.stringify({ ...job, rows: undefined }));
  assert.deepEqual([job.done, job.failed, job.cancelled], [ROWS, 0, 0]);
  assert.deepEqual(
    job.rows.map((row: { row: number }) => row.row),
    rows.map((_, index) => index + 1),
  );
  // Counted once per PDF delivered, whichever service made it.
  const me = (await call(node, 'GET', '/api/me', key)).json();
  assert.equal(me.team.usedThisMonth, ROWS);
  // Every issued file accounted for: one per row, and the rest only from the rows the kill cut
  // off after their PDF was stored (at most one each); one stored PDF per issued file.
  const db = openSqlite(path.join(dataDir, 'imprint.db'), { readOnly: true });
  const issued = (db.prepare('SELECT count(*) AS n FROM issued_files').get() as { n: number }).n;
  db.close();
  assert.equal(new Set(job.rows.map((row: { url: string }) => row.url)).size, ROWS, 'each row its own file');
  assert.ok(issued >= ROWS && issued - ROWS <= inFlight, `${issued} issued files for ${ROWS} rows, ${inFlight} of them cut off by the kill`);
  // A row cut off between its PDF's rename into place and its record's commit leaves a stored
  // PDF no record names (the file goes first: a record never names a file that is not whole).
  // Each row cut off by the kill leaves at most one PDF behind, recorded or not.
  const pdfs = fs.readdirSync(path.join(dataDir, 'files')).filter((name) => name.endsWith('.pdf')).length;
  assert.ok(pdfs >= issued, `${pdfs} stored PDFs for ${issued} issued files: every issued file is stored`);
  assert.ok(pdfs - ROWS <= inFlight, `${pdfs} stored PDFs for ${ROWS} rows, ${inFlight} of them cut off by the kill: at most one left behind by each`);
  for (const row of job.rows) {
    const pdf = await replyOf(await request(row.url));
    assert.equal(pdf.status, 200);
    assert.match(pdfText(pdf.body), new RegExp(`INV-${String(row.row).padStart(4, '0')}[\\s\\S]*Customer ${row.row} Ltd`), `row ${row.row}`);
  }
});
