/**
 * `imprint serve --database ... --storage s3://...` as an operator runs it: the built CLI as
 * child processes on a throwaway PostgreSQL cluster and an S3-compatible server (s3rver) on
 * 127.0.0.1. Two nodes share both: a template published through one renders on the other in
 * the three result forms, a download URL issued by one downloads through the other, the
 * objects are in the bucket (not in either data folder), and a restart finds everything.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { runCli, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { describeReply, fixtureArtifact, replyOf } from './helpers/service.js';

const STORAGE = 's3://imprint-test/nodes';

let cluster: PostgresCluster;
let s3: S3Server;
let databaseUrl: string;
const nodes: ServeProcess[] = [];
const dataDirs = [tempDir('imprint-node-a-'), tempDir('imprint-node-b-')];
/** The operator's own machine: the team and key commands touch only the database. */
const operatorDir = tempDir('imprint-operator-');

before(async () => {
  [cluster, s3] = await Promise.all([startPostgres(), startS3()]);
  databaseUrl = await cluster.createDatabase();
});

after(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await Promise.all([cluster?.stop(), s3?.remove()]);
  for (const dir of [...dataDirs, operatorDir]) fs.rmSync(dir, { recursive: true, force: true });
});

async function call(node: ServeProcess, method: 'GET' | 'POST', urlPath: string, key?: string, body?: unknown) {
  const response = await request(`${node.url}${urlPath}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return replyOf(response);
}

const startNode = async (dataDir: string, env: Record<string, string> = {}) => {
  const node = await startServeProcess({ dataDir, args: ['--database', databaseUrl, '--concurrency', '1'], env: { ...s3.env, IMPRINT_STORAGE: STORAGE, ...env } });
  nodes.push(node);
  return node;
};

async function stopAll() {
  for (const node of nodes.splice(0)) assert.equal(await node.stop(), 0, node.output());
}

test('two nodes on PostgreSQL + S3: publish on one, render on the other in three forms, download anywhere, restart finds everything', { timeout: 240_000 }, async () => {
  const created = await runCli(['team', 'create', 'acme', '--limit', '10', '--database', databaseUrl], { env: { IMPRINT_DATA_DIR: operatorDir } });
  assert.equal(created.code, 0, created.describe());
  const keyed = await runCli(['key', 'create', '--team', 'acme', '--database', databaseUrl], { env: { IMPRINT_DATA_DIR: operatorDir } });
  assert.equal(keyed.code, 0, keyed.describe());
  const key = keyed.stdout.toString().trim();

  const [a, b] = await Promise.all([startNode(dataDirs[0]!), startNode(dataDirs[1]!)]);
  assert.match(a.output(), /objects in S3 bucket "imprint-test" prefix "nodes\/" at http:\/\/127\.0\.0\.1:\d+/);

  const artifact = await fixtureArtifact('Greeting.tsx');
  const published = await call(a, 'POST', '/api/templates', key, { id: 'greeting', artifact });
  assert.equal(published.status, 201, describeReply(published));
  const sha = createHash('sha256').update(JSON.stringify(artifact)).digest('hex');
  assert.deepEqual(await s3.keys('nodes/artifacts/'), [`nodes/artifacts/${sha}`], 'the artifact is in the bucket, under the prefix');

  // Node B has never seen the template: it reads the artifact from the bucket.
  const pdf = await call(b, 'POST', '/api/documents/greeting', key, { props: { name: 'Ada' } });
  assert.equal(pdf.status, 200, describeReply(pdf));
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.match(pdfText(pdf.body), /Hello Ada/);
  assert.equal(pdfInfo(pdf.body).pages, 1);

  const base64 = await call(b, 'POST', '/api/documents/greeting', key, { props: { name: 'Grace' }, format: 'base64' });
  assert.equal(base64.status, 200, describeReply(base64));
  assert.match(pdfText(Buffer.from(base64.json().data, 'base64')), /Hello Grace/);

  const linked = await call(b, 'POST', '/api/documents/greeting', key, { props: { name: 'Linked' }, format: 'json' });
  assert.equal(linked.status, 200, describeReply(linked));
  const url = new URL(linked.json().url);
  assert.equal(url.origin, b.url);
  const files = await s3.keys('nodes/files/');
  assert.equal(files.length, 1, 'the PDF of the json result is in the bucket');
  assert.match(files[0]!, /^nodes\/files\/[0-9a-f]{32}\.pdf$/);
  for (const node of [a, b]) {
    const download = await call(node, 'GET', url.pathname);
    assert.equal(download.status, 200, describeReply(download));
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.equal(Number(download.headers['content-length']), download.body.length);
    assert.match(pdfText(download.body), /Hello Linked/, `downloads through ${node === a ? 'the other node' : 'the node that issued it'}`);
  }

  // Neither data folder holds an object: no artifacts/, no files/, no SQLite database.
  for (const dir of dataDirs) {
    for (const name of ['artifacts', 'files', 'imprint.db']) assert.equal(fs.existsSync(path.join(dir, name)), false, `${name} in ${dir}`);
  }

  const healthy = await call(a, 'GET', '/healthz');
  assert.equal(healthy.status, 200, describeReply(healthy));
  assert.equal(healthy.json().storage, 'ok');

  await stopAll();
  // A fresh node on a fresh data folder finds it all: the template, the count, the download.
  const c = await startNode(tempDir('imprint-node-c-'));
  dataDirs.push(c.dataDir);
  const listed = await call(c, 'GET', '/api/templates', key);
  assert.deepEqual(listed.json().templates.map((t: { id: string; latestVersion: number }) => [t.id, t.latestVersion]), [['greeting', 1]]);
  assert.equal((await call(c, 'GET', '/api/me', key)).json().team.usedThisMonth, 3);
  const again = await call(c, 'GET', url.pathname);
  assert.equal(again.status, 200, describeReply(again));
  assert.match(pdfText(again.body), /Hello Linked/);
  const rendered = await call(c, 'POST', '/api/documents/greeting', key, { props: { name: 'Restarted' } });
  assert.equal(rendered.status, 200, describeReply(rendered));
  assert.match(pdfText(rendered.body), /Hello Restarted/);
});

test('--storage is refused without --database, when it is not s3://, and when its bucket cannot be reached', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('imprint-refused-');
  dataDirs.push(dataDir);
  const env = { ...s3.env, IMPRINT_DATA_DIR: dataDir };

  const alone = await runCli(['serve', '--port', '0', '--storage', STORAGE], { env });
  assert.equal(alone.code, 2, alone.describe());
  assert.match(alone.stderr, /--storage.*needs PostgreSQL \(--database.*each node would count generations.*its own SQLite/s);

  const notS3 = await runCli(['serve', '--port', '0', '--database', databaseUrl, '--storage', '/var/lib/imprint'], { env });
  assert.equal(notS3.code, 2, notS3.describe());
  assert.match(notS3.stderr, /--storage.*not an S3 location: use s3:\/\/bucket/);
  const fromEnv = await runCli(['serve', '--port', '0', '--database', databaseUrl], { env: { ...env, IMPRINT_STORAGE: 'minio://x' } });
  assert.equal(fromEnv.code, 2, fromEnv.describe());
  assert.match(fromEnv.stderr, /IMPRINT_STORAGE/);

  // On a supported Node (22+) the SDK has no Node-version notice to print, and none is silenced for it.
  const noBucket = await runCli(['serve', '--port', '0', '--database', databaseUrl, '--storage', 's3://no-such-bucket'], {
    env: { ...env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined },
  });
  assert.equal(noBucket.code, 1, noBucket.describe());
  assert.match(noBucket.stderr, new RegExp(`S3 bucket "no-such-bucket" at ${s3.endpoint.replace(/\./g, '\\.')}\\) could not reach the bucket: .*does not exist`));
  // The process stops: its message says so, not that requests answer 503 meanwhile.
  assert.match(noBucket.stderr, /imprint serve does not start without it/);
  assert.doesNotMatch(noBucket.stderr, /answer 503/);
  assert.doesNotMatch(noBucket.stderr, /NodeVersionSupportWarning/);

  // The operator commands need no storage: they only touch the database.
  const teams = await runCli(['team', 'list', '--json', '--database', databaseUrl], { env: { ...env, IMPRINT_STORAGE: 'nonsense' } });
  assert.equal(teams.code, 0, teams.describe());
});
