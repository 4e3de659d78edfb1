/**
 * The crash point of a submit (api.md Part D): `imprint serve` dies (SIGKILL, from the test-only
 * switch IMPRINT_TEST_EXIT_AFTER_JOB_COMMIT=1) right after the job's transaction commits, before
 * it answers or does anything else. The job, its rows and their units are one transaction and
 * the rows are the queue, so nothing is half-made: after a restart (SQLite), or on the other
 * node (two nodes on PostgreSQL), the job completes with every row rendered once (each row
 * claimed at attempt 1, exactly one issued file per row) and the team's count exactly the rows.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { openSqlite } from '../../src/core/sqlite-driver.js';
import pg from 'pg';
import { request } from 'undici';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { openStoreAt } from '../../src/core/store/open-store.js';
import { tempDir } from '../helpers/cli.js';
import { FINAL, INVOICE_FILE, invoiceRow, waitFor } from '../helpers/jobs.js';
import { pdfText } from '../helpers/pdf.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { killAll, startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { stopServe } from './helpers/faults.js';
import { callAt as call, describeReply, replyOf } from './helpers/service.js';

const ROWS = 12;
const CRASH = { IMPRINT_TEST_EXIT_AFTER_JOB_COMMIT: '1' };
const children: ServeProcess[] = [];
const folders: string[] = [];
let cluster: PostgresCluster | undefined;

after(async () => {
  await Promise.allSettled(children.map((child) => stopServe(child)));
  await cluster?.stop();
  for (const folder of [...folders, ...children.map((child) => child.tmpDir)]) fs.rmSync(folder, { recursive: true, force: true });
});

async function serve(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = await startServeProcess({ dataDir, args: ['--concurrency', '2', '--job-lease', '5s', ...args], env });
  children.push(child);
  return child;
}

/** A team with a key, made by the operator's own store on the data folder (and database). */
async function teamKey(dataDir: string, databaseUrl?: string): Promise<string> {
  const store = await openStoreAt({ dataDir, databaseUrl });
  try {
    await store.createTeam('acme', 1000);
    return (await store.createApiKey('acme')).key;
  } finally {
    await store.close();
  }
}

/**
 * Publishes the invoice through `node`, then submits a job to it: the node dies on the commit
 * (its browsers are reaped: they are in a process group of their own). Answers the job's id,
 * read from the node that goes on (the caller never got an answer).
 */
async function submitAndCrash(node: ServeProcess, key: string): Promise<void> {
  const artifact = (await bundleTemplate(INVOICE_FILE)).artifact;
  const published = await call(node, 'POST', '/api/templates', key, { id: 'invoice', artifact });
  assert.equal(published.status, 201, describeReply(published));
  const browsers = await node.descendants();
  const rows = Array.from({ length: ROWS }, (_, index) => invoiceRow(index + 1));
  await assert.rejects(call(node, 'POST', '/api/jobs', key, { template: 'invoice', rows, name: '{{invoiceNo}}.pdf' }), 'the caller gets no answer: the node died first');
  const exit = await node.exited;
  killAll(browsers);
  assert.equal(exit.signal, 'SIGKILL', node.output());
}

/** The one job of the team, finished, with each row's PDF saying its own invoice. */
async function finishedJob(node: ServeProcess, key: string) {
  const listed = (await call(node, 'GET', '/api/jobs', key)).json().jobs as { id: string }[];
  assert.equal(listed.length, 1, 'the job committed before the crash is there, once');
  const job = await waitFor(async () => (await call(node, 'GET', `/api/jobs/${listed[0].id}`, key)).json(), (seen) => FINAL.includes(seen.status), 'the job to finish');
  assert.equal(job.status, 'completed', JSON.stringify({ ...job, rows: undefined }));
  assert.deepEqual([job.total, job.done, job.failed, job.cancelled], [ROWS, ROWS, 0, 0]);
  for (const row of job.rows) {
    const pdf = await replyOf(await request(row.url));
    assert.equal(pdf.status, 200);
    assert.match(pdfText(pdf.body), new RegExp(`INV-${String(row.row).padStart(4, '0')}`), `row ${row.row}`);
  }
  const me = (await call(node, 'GET', '/api/me', key)).json();
  assert.equal(me.team.usedThisMonth, ROWS, 'the units are exactly the rows');
  return job as { id: string };
}

const pdfsIn = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'files')).filter((name) => name.endsWith('.pdf'));

test('SQLite: serve dies right after the job commits; restarted, it completes the job, every row once, the units exact', { timeout: 300_000 }, async () => {
  const dataDir = tempDir('imprint-crash-point-');
  folders.push(dataDir);
  const key = await teamKey(dataDir);
  await submitAndCrash(await serve(dataDir, [], CRASH), key);

  // In the data folder, as the dead node left it: the job whole, nothing started.
  const db = openSqlite(path.join(dataDir, 'imprint.db'), { readOnly: true });
  try {
    assert.deepEqual(db.prepare(`SELECT status, total FROM jobs`).all(), [{ status: 'queued', total: ROWS }]);
    assert.deepEqual(db.prepare(`SELECT state, attempt, count(*) AS n FROM job_rows GROUP BY state, attempt`).all(), [{ state: 'queued', attempt: 0, n: ROWS }]);
    assert.deepEqual(db.prepare(`SELECT sum(count) AS used FROM usage`).get(), { used: ROWS });
  } finally {
    db.close();
  }

  const restarted = await serve(dataDir, []);
  const job = await finishedJob(restarted, key);
  await stopServe(restarted);
  const after = openSqlite(path.join(dataDir, 'imprint.db'), { readOnly: true });
  try {
    assert.deepEqual(after.prepare(`SELECT attempt, count(*) AS n FROM job_rows WHERE job_id = ? GROUP BY attempt`).all(job.id), [{ attempt: 1, n: ROWS }], 'every row claimed once');
    assert.equal((after.prepare('SELECT count(*) AS n FROM issued_files').get() as { n: number }).n, ROWS, 'one issued file per row, none more');
  } finally {
    after.close();
  }
  assert.equal(pdfsIn(dataDir).length, ROWS, 'one PDF per row in the data folder');
});

test('two nodes on PostgreSQL: the node that took the job dies on its commit; the other completes it, every row once, the units exact', { timeout: 300_000 }, async () => {
  cluster = await startPostgres();
  const databaseUrl = await cluster.createDatabase();
  const dataDir = tempDir('imprint-crash-point-pg-');
  folders.push(dataDir);
  const key = await teamKey(dataDir, databaseUrl);
  const [crashing, other] = await Promise.all([serve(dataDir, ['--database', databaseUrl], CRASH), serve(dataDir, ['--database', databaseUrl])]);
  await submitAndCrash(crashing, key);

  const job = await finishedJob(other, key);
  // The dead node, restarted, finds nothing left to do and changes nothing.
  const restarted = await serve(dataDir, ['--database', databaseUrl]);
  assert.equal((await call(restarted, 'GET', `/api/jobs/${job.id}`, key)).json().status, 'completed');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const attempts = await db.query<{ attempt: number; n: number }>('SELECT attempt, count(*)::int AS n FROM job_rows WHERE job_id = $1 GROUP BY attempt', [job.id]);
    assert.deepEqual(attempts.rows, [{ attempt: 1, n: ROWS }], 'every row claimed once');
    const files = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM issued_files');
    assert.equal(files.rows[0].n, ROWS, 'one issued file per row, none more');
  } finally {
    await db.end();
  }
  assert.equal(pdfsIn(dataDir).length, ROWS, 'one PDF per row in the shared folder');
});
