/**
 * A 2,000-page document through the service (issue 40), as e2e/big-document.test.ts prints it
 * through the CLI: the same raw HTML (helpers/big-statement.ts) sent to the installed
 * `imprint serve` on 127.0.0.1 port 0.
 *
 * - With `--max-pages` raised past it: `POST /api/generate` answers the whole PDF, and a job of
 *   one A2 row (`POST /api/jobs`, jobs.md) stores it whole behind its row's download URL. Each
 *   checked by content: page count, first and last page, "Page 1 of 2000" and "Page 2000 of 2000".
 * - With the default `--max-pages` (1000): the same request is refused with 422
 *   DOCUMENT_TOO_LARGE, a message naming both counts and the flag that raises the limit, and
 *   nothing counted.
 *
 * The service's peak resident memory (VmHWM, reset before each render) and each render's time
 * are printed as diagnostics for the report, never asserted.
 *
 * Long: three 2,000-page renders (seconds to a minute each on a busy 2-core machine), one at a
 * time (the services one after the other, each with one render slot). The render deadline is
 * raised for all three, the refusal's too: the page limit is read from the printed PDF, so under
 * the default 30 s a slow machine answers 504 before the pages are counted. Each request has a
 * deadline a minute past the render's, each test one past its requests', all inside the runner's
 * per-file deadline; each service is stopped in its after() (or by warmService if its warm-up
 * fails).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { DEFAULT_RENDER_LIMITS } from '../../src/core/limits/render-limits.js';
import { assertWholeStatement, bigStatementHtml } from '../helpers/big-statement.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { peakMemoryMiB, resetPeakMemory } from '../helpers/peak-memory.js';
import { describeReply, startTestService, type Reply, type TestService, type TestServiceOptions } from './helpers/service.js';

const PAGES = 2000;
const html = bigStatementHtml(PAGES);
const TEAM = 'statements';

/**
 * Far above what one of these renders takes (5 to 21 s measured on 2 cores at a load of 8 to 17),
 * and under --reservation-lease's default (DEFAULT_RESERVATION_LEASE_MS), which the service
 * requires to be longer than its render timeout.
 */
const RENDER_TIMEOUT_MS = 5 * 60_000;
/** A render's answer: its deadline, then the PDF's transfer. */
const RENDER_REQUEST_MS = RENDER_TIMEOUT_MS + 60_000;
/** A request that renders nothing (a submit, a status, a download of a few MiB). */
const QUICK_REQUEST_MS = 60_000;
const TEST_TIMEOUT_MS = RENDER_REQUEST_MS + 2 * QUICK_REQUEST_MS;

/** One render slot: nothing else renders beside the long one on a 2-core machine. */
const serviceWith = (maxPages?: number): TestServiceOptions => ({ renderTimeoutMs: RENDER_TIMEOUT_MS, renderLimits: { maxPages }, pool: { concurrency: 1 } });

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * A service for the long renders, warmed by a one-page render first, so the memory measured over
 * a long one is the document's and not the first render's (modules loaded, the browser started).
 */
async function warmService(maxPages?: number): Promise<{ service: TestService; key: string }> {
  const service = await startTestService(serviceWith(maxPages));
  try {
    const { key } = await service.team(TEAM);
    assertPdf(await service.call('POST', '/api/generate', { key, body: { html: bigStatementHtml(1) }, timeoutMs: RENDER_REQUEST_MS }));
    return { service, key };
  } catch (error) {
    await service.close();
    throw error;
  }
}

/**
 * Runs `work` (one render) and says what it cost: wall time and the service's peak resident
 * memory over it, next to its resident memory before.
 */
async function measured<T>(t: TestContext, service: TestService, what: string, work: () => Promise<T>): Promise<T> {
  resetPeakMemory(service.pid);
  const residentMiB = peakMemoryMiB(service.pid);
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  t.diagnostic(`${what}: ${seconds.toFixed(1)} s; the service's peak RSS ${peakMemoryMiB(service.pid).toFixed(0)} MiB (${residentMiB.toFixed(0)} MiB before)`);
  return value;
}

function assertPdf(reply: Reply): Buffer {
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/pdf/);
  return reply.body;
}

describe(`${PAGES} pages with --max-pages raised past them`, () => {
  let service: TestService;
  let key: string;
  before(async () => ({ service, key } = await warmService(PAGES + 500)));
  after(() => service?.close());

  test('POST /api/generate answers the whole PDF', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const reply = await measured(t, service, 'A2 render', () => service.call('POST', '/api/generate', { key, body: { html }, timeoutMs: RENDER_REQUEST_MS }));
    const pdf = assertPdf(reply);
    t.diagnostic(`A2 PDF: ${mib(pdf.length)} MiB`);
    assertWholeStatement(pdf, PAGES);
  });

  test("a job of one A2 row stores the whole PDF behind the row's download URL", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const pdf = await measured(t, service, 'job row, submit to download', async () => {
      const submitted = await service.call('POST', '/api/jobs', { key, body: { rows: [{ html }] }, timeoutMs: QUICK_REQUEST_MS });
      assert.equal(submitted.status, 202, describeReply(submitted));
      const { id } = submitted.json<{ id: string }>();
      // Once a second: the row takes a minute, and faster polls would take the cores from it.
      const job = await waitFor(
        async () => (await service.call('GET', `/api/jobs/${id}`, { key, timeoutMs: QUICK_REQUEST_MS })).json(),
        (status) => FINAL.includes(status.status),
        `job ${id} to finish`,
        RENDER_REQUEST_MS,
        1000,
      );
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.deepEqual(
        job.rows.map((row: { row: number }) => row.row),
        [1],
      );
      return assertPdf(await service.call('GET', new URL(job.rows[0].url).pathname, { timeoutMs: QUICK_REQUEST_MS }));
    });
    t.diagnostic(`job row PDF: ${mib(pdf.length)} MiB`);
    assertWholeStatement(pdf, PAGES);
  });
});

describe(`${PAGES} pages with the default --max-pages`, () => {
  let service: TestService;
  let key: string;
  before(async () => ({ service, key } = await warmService()));
  after(() => service?.close());

  test('POST /api/generate is refused: 422 naming the limit and the flag that raises it, nothing counted or kept', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const reply = await measured(t, service, 'A2 render refused', () => service.call('POST', '/api/generate', { key, body: { html }, timeoutMs: RENDER_REQUEST_MS }));
    assert.equal(reply.status, 422, describeReply(reply));
    const body = reply.json();
    assert.equal(body.code, 'DOCUMENT_TOO_LARGE', describeReply(reply));
    const limit = DEFAULT_RENDER_LIMITS.maxPages;
    assert.match(body.error, new RegExp(`The document has ${PAGES} pages, more than the ${limit} pages per document this service renders\\.`));
    assert.match(body.error, /Split it into several documents, or ask the service's operator to raise the limit \(`imprint serve --max-pages`\)\./);
    const counted = await service.operator.usage((await service.operator.getTeam(TEAM))!.id);
    assert.equal(counted, 1, 'the warm-up counted, the refused document not');
    assert.deepEqual(await service.objectNames('files'), [], 'no download file kept');
  });
});
