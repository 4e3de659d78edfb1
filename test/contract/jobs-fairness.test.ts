/**
 * Fair across teams (api.md Part D, src/core/jobs/table-queue.ts), on one SQLite node and on
 * two PostgreSQL nodes. Team B has a 2,000-row job running and 24 finished jobs whose webhook
 * target accepts connections and never answers. Team A then submits a 5-row job with a
 * webhook:
 *
 * - A's rows are taken in turn with B's, so A's job finishes while B's makes a handful of rows
 *   (counted, not timed: B's progress while A ran is bounded by A's rows and the slots), and
 *   not after B's 2,000;
 * - A's webhook is not queued behind B's hanging ones (deliveries are limited per team): it
 *   arrives within --webhook-timeout plus a second of A's job finishing, once (a quiet period
 *   after it sees no second one).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { openStoreAt } from '../../src/core/store/open-store.js';
import { tempDir } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { stopServe } from './helpers/faults.js';
import { callAt as call, describeReply } from './helpers/service.js';

const B_ROWS = 2000;
const B_HOOK_JOBS = 24;
const A_ROWS = 5;
const WEBHOOK_TIMEOUT_MS = 3000;
const QUIET_MS = 2000;
const SLOTS = 2;

const children: ServeProcess[] = [];
const folders: string[] = [];
const closers: (() => Promise<void>)[] = [];
let cluster: PostgresCluster | undefined;

after(async () => {
  await Promise.allSettled(children.map((child) => stopServe(child)));
  await Promise.allSettled(closers.map((close) => close()));
  await cluster?.stop();
  for (const folder of [...folders, ...children.map((child) => child.tmpDir)]) fs.rmSync(folder, { recursive: true, force: true });
});

/** A webhook target that takes connections and never answers; counts them. */
async function silentReceiver(): Promise<{ url: string; connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let seen = 0;
  const server = net.createServer((socket) => {
    seen++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, connections: () => seen };
}

/** A webhook target that answers 204 and notes when each delivery arrived. */
async function answeringReceiver(): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrivals };
}

async function scenario(nodes: ServeProcess[], keys: { a: string; b: string }) {
  const [first, last] = [nodes[0], nodes[nodes.length - 1]];
  for (const key of [keys.a, keys.b]) assert.equal((await call(first, 'POST', '/api/webhook-secret', key, {})).status, 201);
  const silent = await silentReceiver();
  const answering = await answeringReceiver();

  // B: 24 jobs whose one row fails at once (a private address the operator did not allow) and
  // whose webhook never gets an answer, then the big job (a team's own jobs go oldest first).
  const hookJobs: string[] = [];
  for (let i = 0; i < B_HOOK_JOBS; i++) {
    const submitted = await call(nodes[i % nodes.length], 'POST', '/api/jobs', keys.b, { rows: [{ url: 'http://10.255.255.1/' }], webhook: { url: silent.url } });
    assert.equal(submitted.status, 202, describeReply(submitted));
    hookJobs.push(submitted.json().id);
  }
  const big = await call(first, 'POST', '/api/jobs', keys.b, { rows: Array.from({ length: B_ROWS }, (_, i) => ({ html: `<p>B row ${i + 1}</p>` })) });
  assert.equal(big.status, 202, describeReply(big));
  const bigId = big.json().id as string;
  const bigJob = async () => (await call(first, 'GET', `/api/jobs/${bigId}`, keys.b)).json();
  await waitFor(async () => Promise.all(hookJobs.map(async (id) => (await call(first, 'GET', `/api/jobs/${id}`, keys.b)).json().status)), (statuses) => statuses.every((s) => s === 'failed'), "B's 24 webhook jobs to fail");
  // B's deliveries are hanging on every node, and its big job is under way.
  await waitFor(async () => silent.connections(), (n) => n >= 2 * nodes.length, "B's webhooks to hang at the silent receiver");
  await waitFor(bigJob, (job) => job.done >= 10, "B's big job to be under way");

  const bAtSubmit = (await bigJob()).done as number;
  const submittedAt = Date.now();
  const small = await call(last, 'POST', '/api/jobs', keys.a, { rows: Array.from({ length: A_ROWS }, (_, i) => ({ html: `<p>A row ${i + 1}</p>` })), webhook: { url: answering.url } });
  assert.equal(small.status, 202, describeReply(small));
  const smallId = small.json().id as string;
  const aJob = await waitFor(async () => (await call(last, 'GET', `/api/jobs/${smallId}`, keys.a)).json(), (job) => FINAL.includes(job.status), "A's job to finish", 120_000);
  const finishedAt = Date.now();
  const bAtFinish = (await bigJob()).done as number;
  assert.equal(aJob.status, 'completed', JSON.stringify({ ...aJob, rows: undefined }));

  // In turn: while A's 5 rows ran, B made about as many per slot, never its 2,000 first.
  const bDuring = bAtFinish - bAtSubmit;
  const slots = SLOTS * nodes.length;
  assert.ok(bDuring <= A_ROWS + 2 * slots + 4, `B made ${bDuring} rows while A's ${A_ROWS} ran on ${slots} slots (taken in turn, it makes about ${A_ROWS})`);
  assert.ok(bAtFinish < B_ROWS, "B's big job still running: A did not wait for it");

  // A's webhook: not behind B's hanging ones.
  await waitFor(async () => answering.arrivals.length, (n) => n >= 1, "A's webhook", WEBHOOK_TIMEOUT_MS + 30_000);
  const late = answering.arrivals[0] - Date.parse(aJob.finishedAt);
  assert.ok(late <= WEBHOOK_TIMEOUT_MS + 1000, `A's webhook arrived ${late} ms after A's job finished (limit: --webhook-timeout ${WEBHOOK_TIMEOUT_MS} ms + 1 s)`);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  assert.equal(answering.arrivals.length, 1, `A's webhook arrived once in a quiet period of ${QUIET_MS} ms`);
  console.log(
    `# ${nodes.length} node(s): A's ${A_ROWS}-row job took ${finishedAt - submittedAt} ms while B made ${bDuring} of its ${B_ROWS} rows; A's webhook ${late} ms after A finished; B's silent receiver took ${silent.connections()} connections`,
  );

  // B's big job is cancelled so the nodes stop soon.
  assert.equal((await call(first, 'DELETE', `/api/jobs/${bigId}`, keys.b)).status, 200);
  await waitFor(bigJob, (job) => FINAL.includes(job.status), "B's big job to end", 60_000);
}

async function teams(dataDir: string, databaseUrl?: string): Promise<{ a: string; b: string }> {
  const store = await openStoreAt({ dataDir, databaseUrl });
  try {
    await store.createTeam('team-a', 100);
    await store.createTeam('team-b', 5000);
    return { a: (await store.createApiKey('team-a')).key, b: (await store.createApiKey('team-b')).key };
  } finally {
    await store.close();
  }
}

const nodeArgs = ['--concurrency', String(SLOTS), '--allow-host', '127.0.0.1', '--webhook-timeout', `${WEBHOOK_TIMEOUT_MS}ms`, '--webhook-retry-base', '1s'];

async function node(dataDir: string, extra: string[] = []): Promise<ServeProcess> {
  const child = await startServeProcess({ dataDir, args: [...nodeArgs, ...extra] });
  children.push(child);
  return child;
}

test('SQLite: a 5-row job of team A runs in turn with team B\'s 2,000 rows; its webhook is not held behind B\'s 24 hanging ones', { timeout: 300_000 }, async () => {
  const dataDir = tempDir('imprint-fairness-');
  folders.push(dataDir);
  const keys = await teams(dataDir);
  await scenario([await node(dataDir)], keys);
});

test('two nodes on PostgreSQL: the same, across the nodes', { timeout: 300_000 }, async () => {
  cluster = await startPostgres();
  const databaseUrl = await cluster.createDatabase();
  const dataDir = tempDir('imprint-fairness-pg-');
  folders.push(dataDir);
  const keys = await teams(dataDir, databaseUrl);
  const started = await Promise.allSettled([node(dataDir, ['--database', databaseUrl]), node(dataDir, ['--database', databaseUrl])]);
  const nodes = started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : assert.fail(String(outcome.reason))));
  await scenario(nodes, keys);
});
