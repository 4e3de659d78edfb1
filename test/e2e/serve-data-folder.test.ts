/**
 * `imprint serve` over what the CLI wrote: a data folder published into by the embedded CLI
 * is served as is with `--data-dir` (its templates render through the API with the key an
 * operator command made for the CLI's own team), and `/healthz` tells a load balancer the
 * truth when the service's browser cannot start (503, browser "not ready: <why>"), where a
 * service with a working browser says "ok".
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { callService } from '../contract/helpers/faults.js';
import { describeReply } from '../contract/helpers/service.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceData = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));

const stops: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const stop of stops) await stop();
});

async function serveChild(options: Parameters<typeof startServeProcess>[0]): Promise<ServeProcess> {
  const serve = await startServeProcess(options);
  stops.push(async () => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) await serve.stop();
    fs.rmSync(serve.tmpDir, { recursive: true, force: true });
  });
  return serve;
}

describe('a data folder published into by the CLI, served by imprint serve --data-dir', () => {
  const published = tempDir('imprint-published-');
  /** Where IMPRINT_DATA_DIR points for the service: empty, so only --data-dir can find the template. */
  const elsewhere = tempDir('imprint-elsewhere-');
  let serve: ServeProcess;
  let key: string;

  before(async () => {
    const env = { IMPRINT_DATA_DIR: published };
    const publish = await runCli(['publish', invoice], { env });
    assert.equal(publish.code, 0, publish.describe());
    // The embedded CLI publishes for its own team; the operator gives that team a key.
    const teams = await runCli(['team', 'list', '--json'], { env });
    assert.equal(teams.code, 0, teams.describe());
    const [team, ...others] = JSON.parse(teams.stdout.toString()) as { name: string }[];
    assert.ok(team && others.length === 0, teams.stdout.toString());
    const created = await runCli(['key', 'create', '--team', team.name], { env });
    assert.equal(created.code, 0, created.describe());
    key = created.stdout.toString().trim();
    serve = await serveChild({ dataDir: elsewhere, args: ['--data-dir', published] });
  });
  after(() => {
    for (const dir of [published, elsewhere]) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the template the CLI published is listed and renders through the API with the given props', async () => {
    const listed = await callService(serve.url, 'GET', '/api/templates', { key });
    assert.equal(listed.status, 200, describeReply(listed));
    assert.deepEqual(
      listed.json().templates.map((t: { id: string }) => t.id),
      ['invoice'],
    );
    const rendered = await callService(serve.url, 'POST', '/api/documents/invoice', { key, body: { props: invoiceData } });
    assert.equal(rendered.status, 200, describeReply(rendered));
    const text = pdfText(rendered.body);
    for (const expected of [invoiceData.invoiceNo, invoiceData.customer.name]) assert.ok(text.includes(expected), `${expected} in:\n${text}`);
  });

  test('/healthz of a service whose browser starts: 200, browser ok', async () => {
    const health = await callService(serve.url, 'GET', '/healthz');
    assert.equal(health.status, 200, describeReply(health));
    assert.equal(health.json().browser, 'ok');
  });
});

describe('a service whose browser cannot start', () => {
  let serve: ServeProcess;
  const binDir = tempDir('imprint-broken-browser-');
  const broken = path.join(binDir, 'chromium');

  before(async () => {
    // An executable that exits at once, as a Chromium missing its libraries does.
    fs.writeFileSync(broken, '#!/bin/sh\necho "chromium: error while loading shared libraries" >&2\nexit 127\n', { mode: 0o755 });
    serve = await serveChild({ env: { IMPRINT_BROWSER: broken } });
  });
  after(() => {
    fs.rmSync(binDir, { recursive: true, force: true });
    fs.rmSync(serve.dataDir, { recursive: true, force: true });
  });

  test('/healthz answers 503: the service is up, its browser not ready, and says why', async () => {
    const health = await callService(serve.url, 'GET', '/healthz');
    assert.equal(health.status, 503, describeReply(health));
    const body = health.json();
    assert.equal(body.status, 'unavailable');
    assert.equal(body.service, 'ok');
    assert.match(body.browser, /^not ready: /);
    assert.match(body.error, /browser is not ready/);
  });
});
