/**
 * The object storage goes away under a running service (`imprint serve --database ...
 * --storage s3://...`, the built CLI as a child process): s3rver is stopped, then started
 * again on the same port with the same folder. While it is away, what needs it (publishing,
 * rendering a template the node has not loaded yet, a `json` result, a download) answers 503
 * STORAGE_UNAVAILABLE and counts nothing, what does not (a template already loaded, as a
 * PDF) keeps working, and /healthz says the storage is unreachable. Once it is back, the
 * same requests succeed without restarting the service.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { httpStatusOf } from '../../src/core/errors.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { scrape } from '../helpers/prometheus.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { describeReply, fixtureArtifact, replyOf, type Reply } from './helpers/service.js';

let cluster: PostgresCluster;
let s3: S3Server;
let serve: ServeProcess | undefined;
const folders = [tempDir('imprint-operator-'), tempDir('imprint-node-')];

before(async () => {
  [cluster, s3] = await Promise.all([startPostgres(), startS3()]);
});

after(async () => {
  if (serve) await serve.stop();
  await Promise.all([cluster?.stop(), s3?.remove()]);
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', urlPath: string, key?: string, body?: unknown): Promise<Reply> {
  const response = await request(`${serve!.url}${urlPath}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return replyOf(response);
}

function expectUnavailable(reply: Reply, what: string): void {
  assert.equal(reply.status, 503, `${what}: ${describeReply(reply)}`);
  const body = reply.json();
  assert.equal(body.code, 'STORAGE_UNAVAILABLE', what);
  assert.equal(httpStatusOf(body.code), 503);
  assert.match(body.error, /object storage cannot be reached.*nothing of it was counted.*Try again/, what);
  assert.ok(!body.error.includes(s3.endpoint) && !body.error.includes('imprint-test'), 'the bucket and its address stay in the log');
}

test('S3 unreachable: 503 STORAGE_UNAVAILABLE for what needs it, /healthz says so, and all works again once it is back, without a restart', { timeout: 180_000 }, async () => {
  const databaseUrl = await cluster.createDatabase();
  const operator = { env: { IMPRINT_DATA_DIR: folders[0]! } };
  assert.equal((await runCli(['team', 'create', 'acme', '--database', databaseUrl], operator)).code, 0);
  const keyed = await runCli(['key', 'create', '--team', 'acme', '--database', databaseUrl], operator);
  assert.equal(keyed.code, 0, keyed.describe());
  const key = keyed.stdout.toString().trim();

  serve = await startServeProcess({ dataDir: folders[1], args: ['--database', databaseUrl, '--storage', 's3://imprint-test/outage', '--concurrency', '1', '--metrics-on-api-port'], env: s3.env });
  const greeting = await fixtureArtifact('Greeting.tsx');
  const landscape = await fixtureArtifact('Landscape.tsx');
  assert.equal((await call('POST', '/api/templates', key, { id: 'greeting', artifact: greeting })).status, 201);
  assert.equal((await call('POST', '/api/templates', key, { id: 'landscape', artifact: landscape })).status, 201);
  // greeting is rendered once, so the node holds its artifact; landscape never is.
  assert.match(pdfText((await call('POST', '/api/documents/greeting', key, { props: { name: 'Before' } })).body), /Hello Before/);
  const linked = await call('POST', '/api/documents/greeting', key, { props: { name: 'Linked' }, format: 'json' });
  assert.equal(linked.status, 200, describeReply(linked));
  const download = new URL(linked.json().url).pathname;
  const used = async () => (await call('GET', '/api/me', key)).json().team.usedThisMonth as number;
  assert.equal(await used(), 2);

  await s3.stop();
  try {
    const health = await call('GET', '/healthz');
    assert.equal(health.status, 503, describeReply(health));
    assert.equal(health.json().status, 'unavailable');
    assert.equal(health.json().storage, 'unreachable');
    assert.equal(health.json().browser, 'ok');
    assert.match(health.json().error, /object storage cannot be reached/);

    expectUnavailable(await call('POST', '/api/templates', key, { id: 'letter', artifact: greeting }), 'publish');
    expectUnavailable(await call('POST', '/api/documents/landscape', key, { props: {} }), 'a template not loaded yet');
    expectUnavailable(await call('POST', '/api/documents/greeting', key, { props: { name: 'Lost' }, format: 'json' }), 'a json result');
    expectUnavailable(await call('POST', '/api/generate', key, { html: '<p>Linked</p>', format: 'json' }), 'a json result of generate');
    expectUnavailable(await call('GET', download), 'a download');
    // A template the node has loaded prints without the storage.
    const cached = await call('POST', '/api/documents/greeting', key, { props: { name: 'Cached' } });
    assert.equal(cached.status, 200, describeReply(cached));
    assert.match(pdfText(cached.body), /Hello Cached/);
    assert.equal(await used(), 3, 'the refused renders counted nothing');
    assert.ok((await call('GET', '/api/templates/letter', key)).status === 404, 'the refused publish left no version');
    // The operator's metrics count the failures by kind, for an alert.
    const metrics = await scrape(`${serve.url}/metrics`);
    for (const operation of ['publishTemplate', 'readArtifact', 'issueFile', 'openIssuedFile']) {
      assert.ok((metrics.value('imprint_store_operation_errors_total', { operation, kind: 'storage-unavailable' }) ?? 0) >= 1, operation);
    }
    // The operator's log names the bucket, its address and the cause.
    assert.match(serve.output(), new RegExp(`S3 bucket \\\\?"imprint-test\\\\?" prefix \\\\?"outage/\\\\?" at ${s3.endpoint.replace(/\./g, '\\.')}\\) could not .*ECONNREFUSED`));
  } finally {
    await s3.start();
  }

  const health = await call('GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  assert.equal(health.json().storage, 'ok');
  assert.equal((await call('POST', '/api/templates', key, { id: 'letter', artifact: greeting })).status, 201);
  const rendered = await call('POST', '/api/documents/landscape', key, { props: {} });
  assert.equal(rendered.status, 200, describeReply(rendered));
  const relinked = await call('POST', '/api/documents/greeting', key, { props: { name: 'Back' }, format: 'json' });
  assert.equal(relinked.status, 200, describeReply(relinked));
  assert.match(pdfText((await call('GET', new URL(relinked.json().url).pathname)).body), /Hello Back/);
  assert.match(pdfText((await call('GET', download)).body), /Hello Linked/, 'the link issued before the outage works again');
  assert.equal(await used(), 5);
  assert.equal(serve.child.exitCode, null, 'the same process throughout');
});
