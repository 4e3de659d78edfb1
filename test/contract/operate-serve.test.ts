/**
 * `imprint serve` as an operator runs it (the built CLI as a child process): where /metrics is
 * served and where it is not, and what its log holds after a full contract run. The log is
 * JSON lines (stdout is a pipe here, not a terminal), every line of a request carries its id,
 * and neither the API keys used, nor props, nor HTML, nor a download token appears in it, even
 * at the most verbose level. Needs the built CLI (npm run build).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { scrape, type Scrape } from '../helpers/prometheus.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { fixtureArtifact, replyOf, type Reply } from './helpers/service.js';

/** Put in props and HTML: it must never be found in the log. */
const MARKER = 'SECRET-MARKER-7f3a9c';

async function teamKey(dataDir: string, team = 'ops'): Promise<string> {
  const operator = cliWithDataDir(dataDir);
  const created = await operator.run(['team', 'create', team]);
  assert.equal(created.code, 0, created.describe());
  const key = await operator.run(['key', 'create', '--team', team]);
  assert.equal(key.code, 0, key.describe());
  return key.stdout.toString().trim();
}

async function call(url: string, options: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return replyOf(await request(url, { method: (options.method ?? (options.body === undefined ? 'GET' : 'POST')) as 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
}

/** The metrics address the service announced at start. */
const metricsUrlOf = (serve: ServeProcess) => /Metrics for Prometheus at (http:\/\/\S+)/.exec(serve.output())?.[1];

describe('where /metrics is served', () => {
  test('by default nowhere: the API port answers /metrics like any unknown path', async () => {
    const dataDir = tempDir('imprint-metrics-off-');
    const key = await teamKey(dataDir);
    const serve = await startServeProcess({ dataDir });
    try {
      assert.equal(metricsUrlOf(serve), undefined, serve.output());
      const withKey = await call(`${serve.url}/metrics`, { key });
      assert.equal(withKey.status, 404, withKey.text());
      assert.match(withKey.json().error, /No endpoint GET \/metrics/);
      // Without a key, as a scraper would come: refused, and no metric in the answer.
      const scraper = await call(`${serve.url}/metrics`);
      assert.equal(scraper.status, 401);
      assert.doesNotMatch(scraper.text(), /imprint_/);
    } finally {
      assert.equal(await serve.stop(), 0, serve.output());
    }
  });

  test('--metrics-port: served there without a key, not on the API port; nothing else on the metrics port', async () => {
    const dataDir = tempDir('imprint-metrics-port-');
    const key = await teamKey(dataDir);
    const serve = await startServeProcess({ dataDir, args: ['--metrics-port', '0', '--concurrency', '3', '--queue-length', '7'] });
    try {
      const metricsUrl = metricsUrlOf(serve);
      assert.ok(metricsUrl, serve.output());
      assert.notEqual(new URL(metricsUrl).port, String(serve.port));
      const metrics = await scrape(metricsUrl);
      assert.equal(metrics.value('imprint_pool_slots'), 3);
      assert.equal(metrics.value('imprint_pool_queue_limit'), 7);
      assert.equal(metrics.value('imprint_browser_running'), 0, 'no browser before the first render');
      assert.equal((await call(`${serve.url}/metrics`, { key })).status, 404);
      const api = await call(new URL('/api/me', metricsUrl).href, { key });
      assert.equal(api.status, 404);
      assert.doesNotMatch(api.text(), /team/);
    } finally {
      assert.equal(await serve.stop(), 0, serve.output());
    }
  });

  test('IMPRINT_METRICS_PORT and IMPRINT_METRICS_ON_API_PORT=1: on both ports, no key asked on the API port', async () => {
    const dataDir = tempDir('imprint-metrics-env-');
    const key = await teamKey(dataDir);
    const serve = await startServeProcess({ dataDir, env: { IMPRINT_METRICS_PORT: '0', IMPRINT_METRICS_ON_API_PORT: '1' } });
    try {
      const metricsUrl = metricsUrlOf(serve);
      assert.ok(metricsUrl, serve.output());
      assert.notEqual(new URL(metricsUrl).port, String(serve.port));
      assert.equal((await scrape(metricsUrl)).value('imprint_pool_queue_length'), 0);
      const onApi = await scrape(`${serve.url}/metrics`);
      assert.equal(onApi.value('imprint_pool_queue_length'), 0);
      // The API port's own answers are counted; /metrics is not in the API's description.
      const openapi = await call(`${serve.url}/openapi.json`, { key });
      assert.equal(openapi.status, 200);
      assert.equal(openapi.json().paths['/metrics'], undefined);
    } finally {
      assert.equal(await serve.stop(), 0, serve.output());
    }
  });

  test('IMPRINT_METRICS_ON_API_PORT=0 stays off; a wrong value stops the service with a message', async () => {
    const dataDir = tempDir('imprint-metrics-switch-');
    const key = await teamKey(dataDir);
    const serve = await startServeProcess({ dataDir, env: { IMPRINT_METRICS_ON_API_PORT: '0' } });
    try {
      assert.equal((await call(`${serve.url}/metrics`, { key })).status, 404);
    } finally {
      assert.equal(await serve.stop(), 0, serve.output());
    }
    await assert.rejects(startServeProcess({ dataDir, env: { IMPRINT_METRICS_ON_API_PORT: 'maybe' } }), /IMPRINT_METRICS_ON_API_PORT="maybe".*use 1 \(on\) or 0 \(off\)/s);
  });
});

describe('the log of a full contract run', () => {
  const dataDir = tempDir('imprint-log-secrets-');
  let serve: ServeProcess | undefined;
  let key: string;
  let otherKey: string;
  const tokens: string[] = [];
  const sentIds: string[] = [];
  /** Everything the service printed, read once it has stopped (so every line is in). */
  let log = '';
  let metrics: Scrape;

  before(async () => {
    key = await teamKey(dataDir, 'ops');
    otherKey = await teamKey(dataDir, 'other');
    // The most verbose level: if anything logs a secret, this does.
    const started = (serve = await startServeProcess({ dataDir, args: ['--log-level', 'trace', '--metrics-port', '0'] }));
    const api = (path: string, options: Parameters<typeof call>[1] = {}) => {
      const id = `run-${sentIds.length + 1}`;
      sentIds.push(id);
      return call(`${started.url}${path}`, { ...options, headers: { 'x-request-id': id, ...options.headers } });
    };
    const expect = async (reply: Promise<Reply>, status: number) => {
      const answer = await reply;
      assert.equal(answer.status, status, answer.text().slice(0, 500));
      return answer;
    };

    const artifact = await fixtureArtifact('Greeting.tsx');
    const propsSchema = { type: 'object', properties: { name: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } }, required: ['name'] };
    await expect(api('/api/templates', { key, body: { id: 'greeting', artifact, propsSchema } }), 201);
    const props = { name: MARKER, lines: [`line ${MARKER}`] };
    await expect(api('/api/documents/greeting', { key, body: { props } }), 200);
    const base64 = await expect(api('/api/documents/greeting', { key, body: { props, format: 'base64' } }), 200);
    assert.ok(base64.json().data);
    const json = await expect(api('/api/documents/greeting', { key, body: { props, format: 'json' } }), 200);
    const download = String(json.json().url);
    tokens.push(download.split('/').pop()!);
    const file = await call(download, { headers: { 'x-request-id': 'run-download' } });
    assert.equal(file.status, 200);
    // Refused props: the message names the field, and the value stays out of the log.
    const refused = await expect(api('/api/documents/greeting', { key, body: { props: { name: 'Ann', lines: MARKER } } }), 400);
    assert.match(refused.json().error, new RegExp(MARKER), 'the caller is told which value was wrong');
    await expect(api('/api/generate', { key, body: { html: `<h1>${MARKER}</h1>` } }), 200);
    await expect(api('/api/generate', { key, body: { html: `<p>${MARKER}</p>`, format: 'json' } }), 200).then((reply) => tokens.push(String(reply.json().url).split('/').pop()!));
    await expect(api('/api/me', { key }), 200);
    await expect(api('/api/templates', { key }), 200);
    await expect(api('/api/documents/greeting', { key: otherKey, body: { props } }), 404);
    await expect(api('/api/me', { key: `${key}x` }), 401);
    await expect(api('/healthz'), 200);
    metrics = await scrape(metricsUrlOf(started)!);
    const code = await started.stop();
    serve = undefined;
    log = started.output();
    assert.equal(code, 0, log);
  });

  after(async () => {
    if (serve) await serve.stop();
  });

  test('no API key, props, HTML or download token in it', () => {
    for (const secret of [key, otherKey, MARKER, ...tokens]) {
      assert.ok(!log.includes(secret), `${secret.slice(0, 12)}... appears in the log:\n${log.split('\n').filter((line) => line.includes(secret)).join('\n')}`);
    }
    // Not because nothing was logged: every request was, its download by a masked URL.
    assert.ok(log.includes('"url":"/api/files/[token]"'), log);
  });

  test('JSON lines (not a terminal), each line of a request carrying its id', () => {
    const lines = log
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    for (const id of [...sentIds, 'run-download']) {
      const messages = entries.filter((entry) => entry.reqId === id).map((entry) => entry.msg);
      assert.equal(messages[0], 'incoming request', `${id}: ${messages.join(', ')}`);
      assert.equal(messages.at(-1), 'request completed', `${id}: ${messages.join(', ')}`);
    }
  });

  test('its metrics name no team unless the operator allows it', () => {
    // Three template renders (pdf, base64, json) and two of HTML, of two teams' keys: one count.
    assert.deepEqual(metrics.series('imprint_generations_total'), [{ name: 'imprint_generations_total', labels: {}, value: 5 }]);
    assert.doesNotMatch(metrics.text, /team="/);
  });
});
