/**
 * Faults (issue 5): a page that never becomes ready. A template whose render spins forever
 * (`while (true) {}`), raw HTML whose script does, a template whose render never resolves
 * (it suspends on a promise that never settles): each answers 504 with an error object at the
 * render deadline (api.md Part B), counts nothing, frees its render slot, and leaves no page
 * of Chromium spinning, so a normal render right after succeeds.
 *
 * The service is the installed package's `imprint serve` with a short deadline
 * (--render-timeout) and ONE render slot (--concurrency 1), so "the next render succeeds" also
 * proves that the slot was given back; its metrics show the slot free and nothing queued, and
 * /proc shows no Chromium process under it still burning CPU. An image that never loads (A2)
 * is test/contract/render-timeout.test.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { INPUTS } from '../helpers/cli.js';
import { isPdf, pdfText } from '../helpers/pdf.js';
import { scrape } from '../helpers/prometheus.js';
import { eventually, spinningChromium } from './helpers/faults.js';
import { describeReply, fixtureArtifact, startTestService, type Reply, type TestService } from './helpers/service.js';

const DEADLINE_MS = 1500;
/**
 * The 504 must be the deadline's doing: it comes no sooner than the deadline, and long before
 * anything else would end the render (Puppeteer's protocol timeout is 180 s; a stuck page
 * with no deadline never ends). Generous on purpose: how late a loaded machine answers is
 * for the benchmarks, not for this test.
 */
const ANSWER_BEFORE_MS = DEADLINE_MS * 20;

let service: TestService;
let team: { name: string; key: string };
let teamId: number;

const loopTemplate = path.join(INPUTS, 'test', 'contract', 'helpers', 'fault-templates', 'Loop.tsx');
const hangTemplate = path.join(INPUTS, 'test', 'fixtures', 'pool', 'Hang.tsx');

before(async () => {
  service = await startTestService({ renderTimeoutMs: DEADLINE_MS, pool: { concurrency: 1 }, metrics: { port: 0 } });
  team = await service.team('stuck');
  teamId = (await service.operator.getTeam('stuck'))!.id;
  const [loop, hang, greeting] = await Promise.all([bundleTemplate(loopTemplate), bundleTemplate(hangTemplate), fixtureArtifact('Greeting.tsx')]);
  for (const [id, artifact] of [['loop', loop.artifact], ['hang', hang.artifact], ['greeting', greeting]] as const) {
    const published = await service.call('POST', '/api/templates', { key: team.key, body: { id, artifact } });
    assert.equal(published.status, 201, describeReply(published));
  }
  // A launch counts against a render's deadline, and the service launches its browser for the
  // first render: warm renders, retried while they run into the short deadline, start it, so
  // the deadline cases below start on a running one. The first page of a browser can take
  // longer than the deadline on a loaded machine too; what follows needs a warm one, not a fast
  // first one.
  let warm = await service.call('POST', '/api/generate', { key: team.key, body: { html: '<h1>Warm</h1>' } });
  for (let attempt = 1; warm.status === 504 && attempt < 5; attempt++) warm = await service.call('POST', '/api/generate', { key: team.key, body: { html: '<h1>Warm</h1>' } });
  expectPdf(warm, /Warm/);
});

after(async () => {
  await service?.close();
});

function expectPdf(reply: Reply, text: RegExp) {
  assert.equal(reply.status, 200, describeReply(reply));
  assert.equal(reply.headers['content-type'], 'application/pdf');
  assert.ok(isPdf(reply.body));
  assert.match(pdfText(reply.body), text);
}

function expectTimeout(reply: Reply, ms: number, what: RegExp) {
  assert.equal(reply.status, 504, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], describeReply(reply));
  assert.equal(body.code, 'RENDER_TIMEOUT');
  assert.match(body.error, what);
  assert.ok(ms >= DEADLINE_MS - 50, `answered after ${Math.round(ms)} ms, before the ${DEADLINE_MS} ms deadline`);
  assert.ok(ms < ANSWER_BEFORE_MS, `answered after ${Math.round(ms)} ms: not the ${DEADLINE_MS} ms deadline that ended it`);
}

async function timed(call: () => Promise<Reply>): Promise<{ reply: Reply; ms: number }> {
  const started = performance.now();
  const reply = await call();
  return { reply, ms: performance.now() - started };
}

/** After a timeout: the slot is free, no page still spins, and a normal render succeeds at once. */
async function expectHealthyAfter(t: TestContext, label: string) {
  const metrics = await scrape(service.metricsUrl!);
  assert.equal(metrics.value('imprint_pool_slots_busy'), 0, `no render holds the slot after the 504:\n${metrics.text}`);
  assert.equal(metrics.value('imprint_pool_queue_length'), 0, `nothing waits for it:\n${metrics.text}`);
  let spinning: Awaited<ReturnType<typeof spinningChromium>> = [];
  const quiet = await eventually(async () => (spinning = await spinningChromium(service.pid)).length === 0, 15_000);
  assert.ok(quiet, `a Chromium process still burns CPU 15 s after the 504: ${JSON.stringify(spinning)}`);

  const { reply, ms } = await timed(() => service.call('POST', '/api/documents/greeting', { key: team.key, body: { props: { name: label } } }));
  // A 200 at all shows it did not wait for the stuck page: on the one slot, waiting would have
  // run it into its own deadline (a 504).
  expectPdf(reply, new RegExp(`Hello ${label}`));
  const health = await service.call('GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  t.diagnostic(`next render: 200 after ${Math.round(ms)} ms`);
}

describe('a page that never becomes ready', () => {
  const cases: Array<{ name: string; path: string; body: object; message: RegExp; after: string }> = [
    {
      name: 'raw HTML spinning in while (true) {}',
      path: '/api/generate',
      body: { html: '<h1>Spinning</h1><script>while (true) {}</script>' },
      message: /Rendering the HTML did not finish within 1\.5 s/,
      after: 'AfterHtmlLoop',
    },
    { name: 'a template whose render spins in while (true) {}', path: '/api/documents/loop', body: { props: { title: 'forever' } }, message: /Rendering Loop\.tsx did not finish within/, after: 'AfterTemplateLoop' },
    { name: 'a template whose render never resolves', path: '/api/documents/hang', body: { props: {} }, message: /Rendering Hang\.tsx did not finish within/, after: 'AfterHang' },
  ];
  for (const stuck of cases) {
    test(`${stuck.name}: 504, not counted, slot freed, the next render succeeds`, async (t) => {
      const used = await service.operator.usage(teamId);
      const { reply, ms } = await timed(() => service.call('POST', stuck.path, { key: team.key, body: stuck.body }));
      expectTimeout(reply, ms, stuck.message);
      t.diagnostic(`504 after ${Math.round(ms)} ms (deadline ${DEADLINE_MS} ms)`);
      assert.equal(await service.operator.usage(teamId), used, 'a timed-out render is not counted');
      await expectHealthyAfter(t, stuck.after);
    });
  }

  test('two stuck renders at once on one slot: both answer 504 by the deadline (the second while still queued), then renders go on', async (t) => {
    const used = await service.operator.usage(teamId);
    const [first, second] = await Promise.all([
      timed(() => service.call('POST', '/api/documents/loop', { key: team.key, body: { props: { title: 'one' } } })),
      timed(() => service.call('POST', '/api/generate', { key: team.key, body: { html: '<script>while (true) {}</script>' } })),
    ]);
    // Which one got the slot first is up to the event loop; the other's deadline ran out in the queue.
    for (const { reply, ms } of [first, second]) expectTimeout(reply, ms, /did not finish within|waited in the queue for its whole deadline/);
    t.diagnostic(`504s after ${Math.round(first.ms)} and ${Math.round(second.ms)} ms (deadline ${DEADLINE_MS} ms)`);
    assert.equal(await service.operator.usage(teamId), used);
    await expectHealthyAfter(t, 'AfterTwo');
  });
});
