/**
 * Metrics and request ids against the real service: the installed package's `imprint serve` on
 * 127.0.0.1 port 0 with its own Chromium, one render slot and no queue (--concurrency 1
 * --queue-length 0, so a 429 can be made on purpose), metrics on a port of their own with team
 * labels allowed (--metrics-port 0 --metrics-team-labels). A known sequence of
 * renders, failures, a 429 and a 422 is sent, then /metrics is scraped and every counter and
 * histogram count is compared with what was sent. Then request ids: given, made, and refused
 * when unusable; in the header, the error body and the log lines of that request. Last, a
 * browser killed: counted as a crash, and the next render's launch as a launch.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { describeReply, fixtureArtifact, startTestService, type Reply, type TestService } from './helpers/service.js';
import { scrape, type Scrape } from '../helpers/prometheus.js';
import { browsersUnder } from './helpers/faults.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A page that keeps its render slot busy until the test has seen the slot taken and sent its 429. */
const SLOW_HTML = '<script>const end = Date.now() + 3000; while (Date.now() < end) {}</script><h1>Slow</h1>';

let service: TestService;
let acme: { name: string; key: string };
let teamId: string;

before(async () => {
  service = await startTestService({ pool: { concurrency: 1, maxQueue: 0 }, metrics: { port: 0, teamLabels: true } });
  acme = await service.team('acme', 5);
  teamId = String((await service.operator.getTeam('acme'))!.id);
});

after(async () => {
  await service?.close();
});

const renderDoc = (id: string, body: unknown, headers?: Record<string, string>) => service.call('POST', `/api/documents/${id}`, { key: acme.key, body, headers });
const generate = (body: unknown) => service.call('POST', '/api/generate', { key: acme.key, body });

function expectStatus(reply: Reply, status: number): Reply {
  assert.equal(reply.status, status, describeReply(reply));
  return reply;
}

/** Scrapes until `done` holds or the deadline passes: the state it waits for is the service's, not the clock's. */
async function scrapeUntil(done: (scrape: Scrape) => boolean, what: string, deadlineMs = 20_000): Promise<Scrape> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const current = await scrape(service.metricsUrl!);
    if (done(current)) return current;
    if (Date.now() > deadline) assert.fail(`${what} never happened; last scrape:\n${current.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /metrics after a known sequence of requests', () => {
  let metrics: Scrape;

  before(async () => {
    const artifact = await fixtureArtifact('Greeting.tsx');
    expectStatus(await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'greeting', artifact } }), 201);
    // HTML: one quick; one slow that holds the only slot while another is refused 429.
    expectStatus(await generate({ html: '<h1>Quick</h1>' }), 200);
    const slow = generate({ html: SLOW_HTML });
    await scrapeUntil((s) => s.value('imprint_pool_slots_busy') === 1, 'the slow render taking the slot');
    const busy = expectStatus(await generate({ html: '<h1>Refused</h1>' }), 429);
    expectStatus(await slow, 200);
    assert.match(String(busy.headers['retry-after']), /^\d+$/);
    // Template renders: one that throws in the page (500), two PDFs, one `json` result, one refused by the schema (400, no render).
    expectStatus(await renderDoc('greeting', { props: { name: 'Boom', explode: true } }), 500);
    expectStatus(await renderDoc('greeting', { props: { name: 'One' } }), 200);
    expectStatus(await renderDoc('greeting', { props: { name: 'Two' } }), 200);
    expectStatus(await renderDoc('greeting', { props: { name: 'Three' }, format: 'json' }), 200);
    expectStatus(await renderDoc('greeting', { props: 'not an object' }), 400);
    // That made 5 generations, the team's limit: the next is refused 422 before any browser work.
    expectStatus(await generate({ html: '<h1>Over the limit</h1>' }), 422);
    // A route that does not exist.
    expectStatus(await service.call('GET', '/api/nothing-here', { key: acme.key }), 404);
    metrics = await scrape(service.metricsUrl!);
  });

  test('HTTP requests by method, route pattern and status; the latency histogram counts each', () => {
    const expected: Array<[string, string, string, number]> = [
      ['POST', '/api/templates', '201', 1],
      ['POST', '/api/documents/:documentId', '200', 3],
      ['POST', '/api/documents/:documentId', '500', 1],
      ['POST', '/api/documents/:documentId', '400', 1],
      ['POST', '/api/generate', '200', 2],
      ['POST', '/api/generate', '429', 1],
      ['POST', '/api/generate', '422', 1],
      ['GET', 'unmatched', '404', 1],
    ];
    for (const [method, route, status, count] of expected) {
      const labels = { method, route, status };
      assert.equal(metrics.value('imprint_http_requests_total', labels), count, `${method} ${route} ${status}`);
      assert.equal(metrics.value('imprint_http_request_duration_seconds_count', labels), count, `${method} ${route} ${status} latency count`);
      assert.equal(metrics.value('imprint_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }), count);
    }
    // Nothing else: no raw URL (template ids, tokens) ever becomes a series.
    assert.equal(metrics.series('imprint_http_requests_total').length, expected.length, metrics.text);
  });

  test('renders by kind, result form and result; phases only for the renders that reached them', () => {
    const renders: Array<[string, string, string, number]> = [
      ['template', 'pdf', 'ok', 2],
      ['template', 'json', 'ok', 1],
      ['template', 'pdf', 'render_failed', 1],
      ['html', 'pdf', 'ok', 2],
      ['html', 'pdf', 'busy', 1],
      ['html', 'pdf', 'limit_exceeded', 1],
    ];
    for (const [kind, format, result, count] of renders) {
      assert.equal(metrics.value('imprint_render_duration_seconds_count', { kind, format, result }), count, `${kind} ${format} ${result}`);
    }
    assert.equal(metrics.series('imprint_render_duration_seconds_count').length, renders.length, metrics.text);

    // queue: every render that got a slot (the failed one too; not the 429, not the 422);
    // load and print: those that printed.
    const phases: Array<[string, string, string, number]> = [
      ['queue', 'template', 'pdf', 3],
      ['load', 'template', 'pdf', 2],
      ['print', 'template', 'pdf', 2],
      ['queue', 'template', 'json', 1],
      ['load', 'template', 'json', 1],
      ['print', 'template', 'json', 1],
      ['queue', 'html', 'pdf', 2],
      ['load', 'html', 'pdf', 2],
      ['print', 'html', 'pdf', 2],
    ];
    for (const [phase, kind, format, count] of phases) {
      assert.equal(metrics.value('imprint_render_phase_seconds_count', { phase, kind, format }), count, `${phase} ${kind} ${format}`);
    }
    assert.equal(metrics.series('imprint_render_phase_seconds_count').length, phases.length, metrics.text);
    // The slow page's script ran while the page loaded: at least its 3 s are in `load`, not in `print`.
    assert.ok(metrics.value('imprint_render_phase_seconds_sum', { phase: 'load', kind: 'html', format: 'pdf' })! >= 3);
    assert.ok(metrics.value('imprint_render_phase_seconds_sum', { phase: 'print', kind: 'html', format: 'pdf' })! < 3);
  });

  test('the pool: one 429, one browser launched and none crashed, slots and queue as configured', () => {
    assert.equal(metrics.value('imprint_pool_rejected_total'), 1);
    assert.equal(metrics.value('imprint_browser_launches_total'), 1);
    assert.equal(metrics.value('imprint_browser_crashes_total'), 0);
    assert.equal(metrics.series('imprint_browser_restarts_total').length, 0, 'no browser retired yet');
    assert.equal(metrics.value('imprint_pool_slots'), 1);
    assert.equal(metrics.value('imprint_pool_queue_limit'), 0);
    assert.equal(metrics.value('imprint_pool_slots_busy'), 0);
    assert.equal(metrics.value('imprint_pool_queue_length'), 0);
    assert.equal(metrics.value('imprint_browser_running'), 1);
    // Every render that got a page, on the one browser: 3 + 1 template, 2 html.
    assert.equal(metrics.value('imprint_browser_current_renders'), 6);
  });

  test('generations counted and refused per team (labels allowed here)', () => {
    assert.equal(metrics.value('imprint_generations_total', { team: teamId }), 5);
    assert.equal(metrics.value('imprint_generations_refused_total', { team: teamId }), 1);
  });

  test('store operations timed; answers such as "over the limit" are not store errors', () => {
    // Every request with a key was authenticated once: 1 publish, 5 documents, 4 generate, the 404.
    assert.equal(metrics.value('imprint_store_operation_duration_seconds_count', { operation: 'authenticateKey' }), 11);
    // A unit reserved for each render that got past validation: 4 templates, 4 html (the 422's reservation is the refusal).
    assert.equal(metrics.value('imprint_store_operation_duration_seconds_count', { operation: 'reserveGeneration' }), 8);
    assert.equal(metrics.value('imprint_store_operation_duration_seconds_count', { operation: 'reserveGeneration.commit' }), 5);
    assert.equal(metrics.value('imprint_store_operation_duration_seconds_count', { operation: 'reserveGeneration.release' }), 2);
    assert.equal(metrics.value('imprint_store_operation_duration_seconds_count', { operation: 'issueFile' }), 1);
    assert.equal(metrics.series('imprint_store_operation_errors_total').length, 0, metrics.text);
  });

  test('process: Node memory and handles, and the Chromium tree', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
    assert.ok(metrics.value('process_resident_memory_bytes')! > 10_000_000);
    assert.ok(metrics.value('nodejs_active_handles_total')! > 0);
    // A browser process, its zygotes, GPU/network utility and at least one renderer.
    assert.ok(metrics.value('imprint_chromium_processes')! >= 3, metrics.text);
    assert.ok(metrics.value('imprint_chromium_memory_bytes')! > 50_000_000, metrics.text);
  });
});

describe('request ids', () => {
  /** The JSON log lines of one request. */
  const linesOf = (id: string) => service.logs.map((line) => JSON.parse(line)).filter((entry) => entry.reqId === id);

  test("the caller's x-request-id: in the answer's header, the error body and every log line of the request", async () => {
    const id = 'client-trace.0042:a/b';
    const reply = expectStatus(await renderDoc('never-published', { props: {} }, { 'x-request-id': id }), 404);
    assert.equal(reply.headers['x-request-id'], id);
    assert.deepEqual(reply.json(), { error: reply.json().error, code: 'NOT_FOUND', requestId: id });
    const lines = linesOf(id);
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['incoming request', 'request refused', 'request completed'],
      service.logs.join('\n'),
    );
  });

  test('no x-request-id: one is made, and is the same in header, body and log', async () => {
    const reply = expectStatus(await service.call('POST', '/api/generate', { key: acme.key, body: { html: 42 } }), 400);
    const id = String(reply.headers['x-request-id']);
    assert.match(id, UUID);
    assert.equal(reply.json().requestId, id);
    assert.deepEqual(linesOf(id).map((line) => line.msg), ['incoming request', 'request refused', 'request completed']);
  });

  test('an unusable x-request-id (spaces, quotes, too long) is replaced, never echoed', async () => {
    for (const given of ['two words', 'quote"d', 'x'.repeat(129)]) {
      const reply = expectStatus(await service.call('GET', '/api/me', { headers: { 'x-request-id': given } }), 401);
      assert.match(String(reply.headers['x-request-id']), UUID, given);
      assert.equal(reply.json().requestId, reply.headers['x-request-id']);
      assert.equal(linesOf(given).length, 0);
    }
  });

  test('a success carries the id in its header only (the body is the document)', async () => {
    const reply = expectStatus(await service.call('GET', '/api/me', { key: acme.key, headers: { 'x-request-id': 'me-1' } }), 200);
    assert.equal(reply.headers['x-request-id'], 'me-1');
    assert.equal(reply.json().requestId, undefined);
  });
});

describe('a browser crash', () => {
  test('counted as a crash, not a restart; the next render launches another browser', { skip: process.platform !== 'linux' && 'finds Chromium in /proc' }, async () => {
    const [browser] = await browsersUnder(service.pid);
    assert.ok(browser, 'the service runs its browser as a child of its process');
    process.kill(browser.pid, 'SIGKILL');
    const crashed = await scrapeUntil((s) => s.value('imprint_browser_crashes_total') === 1, 'the crash being counted');
    assert.equal(crashed.value('imprint_browser_running'), 0);
    assert.equal(crashed.series('imprint_browser_restarts_total').length, 0, 'a crash is no planned restart');

    // acme has used its generations: another team renders.
    const other = await service.team('after-crash');
    expectStatus(await service.call('POST', '/api/generate', { key: other.key, body: { html: '<h1>After the crash</h1>' } }), 200);
    const relaunched = await scrape(service.metricsUrl!);
    assert.equal(relaunched.value('imprint_browser_launches_total'), 2);
    assert.equal(relaunched.value('imprint_browser_running'), 1);
    assert.equal(relaunched.value('imprint_browser_current_renders'), 1);
    assert.ok(relaunched.value('imprint_chromium_processes')! >= 3, relaunched.text);
    // The child's log reaches this process through a pipe: waited for, not assumed there.
    await service.waitForLog((entry) => typeof entry.msg === 'string' && entry.msg.startsWith('browser crashed'), 'the browser crash (the operator log says so)');
  });
});
