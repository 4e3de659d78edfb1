/**
 * Remote mode meets a busy or limited service: the client reads Retry-After, a 429 becomes a
 * typed error carrying it, the remote backend words it and keeps it, and a batch through the
 * remote backend waits for it, retries 5xx, fails a too-large document alone and stops on
 * the generation limit. Over real HTTP, against a scripted server on 127.0.0.1 that records
 * every request (the real service's side is in test/e2e/remote-batch-busy.test.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createClient } from '../../../src/client/client.js';
import { ApiBusyError, ApiError, parseRetryAfter } from '../../../src/client/errors.js';
import { createRemoteBackend } from '../../../src/backend/remote.js';
import { explainRemoteError } from '../../../src/backend/remote-errors.js';
import { DEFAULT_RETRY_POLICY, decideRetry, isBusy, isFatal } from '../../../src/cli/batch/retry.js';
import { runBatch, type BatchSummary } from '../../../src/cli/batch/run-batch.js';
import { summaryText } from '../../../src/cli/batch/progress-text.js';
import { ImprintError } from '../../../src/core/errors.js';
import { checkDocumentLimits } from '../../../src/core/limits/document-limits.js';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

interface Seen {
  method: string;
  url: string;
  body: any;
}

/** Answers each request with `script(request body, how many requests came before)`. */
let script: (body: any, index: number) => Answer = () => ({ status: 500, body: '{"error":"no script"}' });
let seen: Seen[] = [];
let server: http.Server;
let baseUrl: string;

before(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      const index = seen.length;
      seen.push({ method: request.method!, url: request.url!, body });
      const answer = script(body, index);
      response.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'application/json' : 'application/pdf', ...answer.headers });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
});

/** An error answer without a code, as a proxy (or a service older than the codes) sends it. */
const error = (status: number, message: string, headers?: Record<string, string>): Answer => ({ status, headers, body: JSON.stringify({ error: message }) });
/** An error answer as the service sends it: its message and its code. */
const coded = (status: number, code: string, message: string): Answer => ({ status, body: JSON.stringify({ error: message, code }) });
/** Stands for a PDF: the batch writes whatever bytes the service answered. */
const fakePdf = (text: string): Answer => ({ status: 200, body: Buffer.from(`%PDF-1.7 ${text}`) });
const BUSY_MESSAGE = 'All 1 render slots are busy and 1 renders are already waiting. Try again in 7 s.';

/** The service's own 422 texts for a document too large, as core writes them (code DOCUMENT_TOO_LARGE). */
function documentTooLargeMessages(): string[] {
  const messages: string[] = [];
  const keep = (caught: unknown) => {
    assert.equal((caught as ImprintError).code, 'DOCUMENT_TOO_LARGE');
    messages.push((caught as Error).message);
  };
  try {
    // Any bytes: only their number is checked against maxPdfBytes here.
    checkDocumentLimits(Buffer.alloc(2048), { maxPages: Infinity, maxPdfBytes: 1024 });
  } catch (caught) {
    keep(caught);
  }
  const twoPages = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Pages /Count 2 /Kids [] >> endobj\ntrailer << /Root 2 0 R >>\n2 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\n');
  try {
    checkDocumentLimits(twoPages, { maxPages: 1, maxPdfBytes: Infinity });
  } catch (caught) {
    keep(caught);
  }
  return messages;
}

describe('Retry-After', () => {
  const now = Date.parse('2025-01-15T12:00:00Z');
  const cases: [string | string[] | undefined, number | undefined][] = [
    ['3', 3],
    [' 0 ', 0],
    ['120', 120],
    ['Wed, 15 Jan 2025 12:00:09 GMT', 9],
    ['Wed, 15 Jan 2025 12:00:08 GMT', 8],
    ['Wed, 15 Jan 2025 11:00:00 GMT', 0],
    [undefined, undefined],
    ['', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['2025-01-15T12:00:09Z', undefined],
    [['1', '2'], undefined],
  ];
  for (const [header, seconds] of cases) test(`${JSON.stringify(header)} -> ${seconds}`, () => assert.equal(parseRetryAfter(header, now), seconds));
});

describe('the client', () => {
  test('429 is an ApiBusyError carrying Retry-After, with the words to act on', async () => {
    script = () => error(429, BUSY_MESSAGE, { 'retry-after': '7' });
    const client = createClient({ baseUrl, apiKey: 'k' });
    try {
      const caught = await client.generate({ html: '<p>x</p>' }).then(
        () => assert.fail('a 429 must throw'),
        (e: unknown) => e,
      );
      assert.ok(caught instanceof ApiBusyError, String(caught));
      assert.ok(caught instanceof ApiError);
      assert.equal(caught.status, 429);
      assert.equal(caught.retryAfterSeconds, 7);
      assert.equal(caught.serverMessage, BUSY_MESSAGE);
      assert.match(caught.message, /answered 429: the service is busy; retry after 7 s \(All 1 render slots/);
    } finally {
      await client.close();
    }
  });

  test('429 without Retry-After: busy, no wait named; 503 keeps its Retry-After; 500 has none', async () => {
    const client = createClient({ baseUrl, apiKey: 'k' });
    try {
      const fail = (answer: Answer) => {
        script = () => answer;
        return client.generate({ html: 'x' }).then(
          () => assert.fail('must throw'),
          (e: unknown) => e as ApiError,
        );
      };
      const bare = await fail(error(429, 'full'));
      assert.ok(bare instanceof ApiBusyError);
      assert.equal(bare.retryAfterSeconds, undefined);
      assert.match(bare.message, /the service is busy; retry in a moment/);
      const unavailable = await fail(error(503, 'restarting', { 'retry-after': '2' }));
      assert.ok(!(unavailable instanceof ApiBusyError));
      assert.equal(unavailable.status, 503);
      assert.equal(unavailable.retryAfterSeconds, 2);
      const internal = await fail(error(500, 'boom'));
      assert.equal(internal.retryAfterSeconds, undefined);
      assert.equal('retryAfterSeconds' in internal && internal.retryAfterSeconds !== undefined, false);
    } finally {
      await client.close();
    }
  });
});

describe('the remote backend', () => {
  test('a 429 becomes BUSY with retryAfterSeconds, "busy; retry after N s", the client error as cause', async () => {
    script = () => error(429, BUSY_MESSAGE, { 'retry-after': '7' });
    const backend = createRemoteBackend({ apiUrl: baseUrl, apiKey: 'k' });
    try {
      const caught = (await backend.render('card', { title: 'x' }, { format: 'pdf' }).then(
        () => assert.fail('must throw'),
        (e: unknown) => e,
      )) as ImprintError;
      assert.ok(caught instanceof ImprintError);
      assert.equal(caught.code, 'BUSY');
      assert.equal(caught.retryAfterSeconds, 7);
      assert.equal(caught.exitCode, 1);
      assert.equal(caught.message, `The Imprint API at ${baseUrl} is busy; retry after 7 s. The service said: ${BUSY_MESSAGE}`);
      assert.ok(caught.cause instanceof ApiBusyError);
      assert.equal(isBusy(caught), true);
      assert.equal(isFatal(caught), false);
      // The batch's retry waits what the service asked, however the jitter falls.
      assert.deepEqual(decideRetry(caught, 1, DEFAULT_RETRY_POLICY, 0), { retry: true, delayMs: 7000 });
      assert.deepEqual(decideRetry(caught, 1, DEFAULT_RETRY_POLICY, 0.99), { retry: true, delayMs: 7000 });
    } finally {
      await backend.close();
    }
  });

  test('--[no-]tagged, --[no-]outline and --pdfua send their extension fields; without them the body is plain Part A', async () => {
    script = () => fakePdf('ok');
    const backend = createRemoteBackend({ apiUrl: baseUrl, apiKey: 'k' });
    try {
      await backend.render('card', { title: 'x' }, { format: 'pdf', tagged: true, size: 'letter', orientation: 'landscape' });
      await backend.render('card', { title: 'y' }, { format: 'pdf' });
      await backend.render('card', { title: 'z' }, { format: 'pdf', tagged: false });
      await backend.render('card', { title: 'w' }, { format: 'pdf', outline: false, pdfua: true });
      await backend.generate({ html: '<p>t</p>' }, { format: 'pdf', tagged: true });
      await backend.generate({ html: '<p>u</p>' }, { format: 'pdf' });
    } finally {
      await backend.close();
    }
    assert.deepEqual(
      seen.map(({ url, body }) => [url, body]),
      [
        ['/api/documents/card', { props: { title: 'x' }, format: 'pdf', size: 'letter', orientation: 'landscape', tagged: true }],
        ['/api/documents/card', { props: { title: 'y' }, format: 'pdf' }],
        ['/api/documents/card', { props: { title: 'z' }, format: 'pdf', tagged: false }],
        ['/api/documents/card', { props: { title: 'w' }, format: 'pdf', outline: false, pdfua: true }],
        ['/api/generate', { html: '<p>t</p>', format: 'pdf', tagged: true }],
        ['/api/generate', { html: '<p>u</p>', format: 'pdf' }],
      ],
    );
  });

  test('422: the code tells one document too large (that row\'s) from the generation limit (the team\'s); the wording is never read', () => {
    const messages = documentTooLargeMessages();
    assert.equal(messages.length, 2, 'both of core\'s document-limit messages');
    const explain = (message: string, code?: string) =>
      explainRemoteError(new ApiError(422, message, 'POST', `${baseUrl}/api/documents/x`, { code }), baseUrl) as ImprintError;
    for (const message of messages) {
      const explained = explain(message, 'DOCUMENT_TOO_LARGE');
      assert.equal(explained.code, 'DOCUMENT_TOO_LARGE');
      assert.equal(explained.exitCode, 1);
      assert.equal(isFatal(explained), false, 'one document too large does not stop a batch');
      assert.ok(explained.message.includes(message));
      // The same words under the limit's code, or with no code at all (api.md's only 422): the team's limit.
      for (const code of ['LIMIT_EXCEEDED', undefined]) {
        const limit = explain(message, code);
        assert.equal(limit.code, 'LIMIT_EXCEEDED', `code ${code}`);
        assert.equal(isFatal(limit), true, 'the generation limit stops a batch');
      }
    }
    const limitMessage = 'Team "acme" has used all 1000 generations allowed for 2025-01 (UTC).';
    assert.equal(explain(limitMessage, 'DOCUMENT_TOO_LARGE').code, 'DOCUMENT_TOO_LARGE', 'the code, not the words');
    assert.equal(explain('Generation limit exceeded').code, 'LIMIT_EXCEEDED');
  });
});

describe('a remote batch', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-remote-busy-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  async function batch(name: string, rows: Record<string, unknown>[], concurrency = 3) {
    const backend = createRemoteBackend({ apiUrl: baseUrl, apiKey: 'k' });
    const sleeps: number[] = [];
    const outDir = path.join(work, name);
    fs.mkdirSync(outDir);
    let clock = 0;
    try {
      const summary = await runBatch(
        { rows: rows.map((props, i) => ({ row: i + 1, line: i + 1, props })), outDir, namePattern: '{{title}}.pdf', concurrency, skipExisting: false, retry: DEFAULT_RETRY_POLICY },
        {
          render: async (props) => {
            const { result } = await backend.render('card', props, { format: 'pdf' });
            assert.equal(result.format, 'pdf');
            return (result as { pdf: Buffer }).pdf;
          },
          onRow: () => {},
          now: () => clock,
          // No real waiting: the waits asked for are recorded and the clock moves on.
          sleep: async (ms) => {
            sleeps.push(ms);
            clock += ms;
          },
          random: () => 0.5,
        },
      );
      return { summary, sleeps, outDir };
    } finally {
      await backend.close();
    }
  }

  const byRow = (summary: BatchSummary) => summary.rows.map((r) => [r.row, r.status, r.attempts, r.busy ?? 0]);

  test('429s are waited out (at least Retry-After each) and retried past the failure budget; every row is written', async () => {
    // Each row is refused busy 5 times (more than maxAttempts = 4), then rendered.
    const refusals = new Map<string, number>();
    script = (body) => {
      const title = body.props.title as string;
      const count = refusals.get(title) ?? 0;
      if (count < 5) {
        refusals.set(title, count + 1);
        return error(429, 'busy', { 'retry-after': '2' });
      }
      return fakePdf(title);
    };
    const titles = ['A', 'B', 'C', 'D'];
    const { summary, sleeps, outDir } = await batch('busy', titles.map((title) => ({ title })));
    assert.equal(summary.ok, 4, JSON.stringify(summary.rows));
    assert.equal(summary.stoppedBy, undefined);
    assert.deepEqual(byRow(summary), titles.map((_, i) => [i + 1, 'ok', 6, 5]));
    assert.equal(sleeps.length, 20);
    // max(Retry-After, backoff): the backoff (250 ms doubling, times the jitter 0.5) reaches 2000 ms only at the 5th refusal.
    assert.deepEqual(sleeps, Array(20).fill(2000));
    for (const title of titles) assert.equal(fs.readFileSync(path.join(outDir, `${title}.pdf`), 'utf8'), `%PDF-1.7 ${title}`);
    assert.match(summaryText(summary, 'out'), /Rendered 4 of 4 rows .*; the service was busy 20 times and was asked again$/);
  });

  test('busy answers are bounded too: a row refused every time fails after maxBusyAttempts, naming the wait', async () => {
    script = () => error(429, 'still busy', { 'retry-after': '1' });
    const { summary, sleeps } = await batch('always-busy', [{ title: 'X' }], 1);
    assert.deepEqual(byRow(summary), [[1, 'failed', DEFAULT_RETRY_POLICY.maxBusyAttempts, DEFAULT_RETRY_POLICY.maxBusyAttempts]]);
    assert.equal(sleeps.length, DEFAULT_RETRY_POLICY.maxBusyAttempts - 1);
    assert.match(summary.rows[0].error!, /is busy; retry after 1 s/);
  });

  test('a Retry-After longer than the batch waits fails the row at once', async () => {
    script = () => error(429, 'come back tomorrow', { 'retry-after': '86400' });
    const { summary, sleeps } = await batch('too-long', [{ title: 'X' }], 1);
    assert.deepEqual(byRow(summary), [[1, 'failed', 1, 1]]);
    assert.deepEqual(sleeps, []);
  });

  test('5xx is retried within maxAttempts, honouring a 503\'s Retry-After', async () => {
    let calls = 0;
    script = (body) => {
      calls++;
      if (body.props.title === 'flaky') return calls <= 2 ? error(503, 'restarting', { 'retry-after': '3' }) : fakePdf('flaky');
      return error(500, 'always broken');
    };
    const { summary, sleeps } = await batch('5xx', [{ title: 'flaky' }, { title: 'broken' }], 1);
    assert.deepEqual(byRow(summary), [
      [1, 'ok', 3, 0],
      [2, 'failed', DEFAULT_RETRY_POLICY.maxAttempts, 0],
    ]);
    assert.deepEqual(sleeps.slice(0, 2), [3000, 3000], 'the 503\'s Retry-After');
    assert.match(summary.rows[1].error!, /failed \(HTTP 500\): always broken/);
  });

  test('a 422 for one document too large fails that row only', async () => {
    const [tooLarge] = documentTooLargeMessages();
    script = (body) => (body.props.title === 'huge' ? coded(422, 'DOCUMENT_TOO_LARGE', tooLarge) : fakePdf(body.props.title));
    const { summary, sleeps } = await batch('too-large', [{ title: 'a' }, { title: 'huge' }, { title: 'b' }, { title: 'c' }], 1);
    assert.equal(summary.stoppedBy, undefined);
    assert.deepEqual(byRow(summary), [
      [1, 'ok', 1, 0],
      [2, 'failed', 1, 0],
      [3, 'ok', 1, 0],
      [4, 'ok', 1, 0],
    ]);
    assert.deepEqual(sleeps, [], 'not retried: it would fail the same way');
    assert.match(summary.rows[1].error!, /^Document too large: The document is/);
  });

  test('a 422 for the generation limit stops the batch: the rows after it are not sent', async () => {
    script = (_body, index) => (index < 2 ? fakePdf(`n${index}`) : coded(422, 'LIMIT_EXCEEDED', 'Team "acme" has used all 2 generations allowed for 2025-01 (UTC).'));
    const { summary } = await batch('limit', [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }, { title: 'e' }], 1);
    assert.match(summary.stoppedBy ?? '', /^Limit reached: Team "acme" has used all 2 generations/);
    assert.deepEqual(byRow(summary), [
      [1, 'ok', 1, 0],
      [2, 'ok', 1, 0],
      [3, 'failed', 1, 0],
      [4, 'failed', 0, 0],
      [5, 'failed', 0, 0],
    ]);
    assert.equal(seen.length, 3, 'rows 4 and 5 never reached the service');
    assert.match(summary.rows[3].error!, /not rendered: the batch stopped/);
  });
});
