/** Batch rendering's pure parts: reading rows, naming files, deciding retries, progress words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { fileNameFor, rowLabel } from '../../../src/cli/batch/name-pattern.js';
import { crossedTenth, progressText } from '../../../src/cli/batch/progress-text.js';
import { detectFormat, nestColumns, readRows } from '../../../src/cli/batch/read-rows.js';
import { decideRetry, DEFAULT_RETRY_POLICY, isFatal, isRetryable } from '../../../src/cli/batch/retry.js';

describe('readRows', () => {
  test('JSON Lines: one object per line, blank lines skipped, a bad line fails only its row', () => {
    const rows = readRows('{"a":1}\n\n{"a":\n[1]\n{"a":2}\n', 'rows.jsonl');
    assert.deepEqual(rows.map((r) => [r.row, r.line, r.props, r.problem?.slice(0, 20)]), [
      [1, 1, { a: 1 }, undefined],
      [2, 3, undefined, 'line 3 is not valid '],
      [3, 4, undefined, 'props must be a JSON'],
      [4, 5, { a: 2 }, undefined],
    ]);
  });

  test('a JSON array: each element a row; a file that is no array stops the batch', () => {
    assert.deepEqual(readRows('[{"a":1}, 2]', 'rows.json').map((r) => r.props ?? r.problem), [{ a: 1 }, 'props must be a JSON object, got number']);
    assert.throws(() => readRows('{"a":1}', 'rows.json'), (e: unknown) => e instanceof ImprintError && /not a JSON array/.test(e.message));
    assert.throws(() => readRows('[{"a":1},', 'rows.json'), (e: unknown) => e instanceof ImprintError && e.code === 'INVALID_INPUT');
  });

  test('CSV: header names the props, dotted headers nest, values stay text, quoted commas kept', () => {
    const rows = readRows('invoiceNo,customer.name,customer.address.city\n00123,"Acme, Inc.",Lyon\n', 'rows.csv');
    assert.deepEqual(rows, [{ row: 1, line: 2, props: { invoiceNo: '00123', customer: { name: 'Acme, Inc.', address: { city: 'Lyon' } } } }]);
  });

  test('CSV: a record with the wrong number of fields fails its row; clashing headers stop the batch', () => {
    const rows = readRows('a,b\n1,2\n3\n4,5\n', 'rows.csv');
    assert.deepEqual(rows.map((r) => r.problem ?? r.props), [{ a: '1', b: '2' }, 'line 3 has 1 fields, the header has 2', { a: '4', b: '5' }]);
    assert.throws(() => nestColumns(['a', 'a.b']), /clash/);
    assert.throws(() => nestColumns(['a', 'a']), /clash/);
    assert.throws(() => nestColumns(['a..b']), /empty name/);
  });

  test('the format comes from the extension, else from the first character (stdin)', () => {
    assert.equal(detectFormat('-', '  [{}]'), 'json');
    assert.equal(detectFormat('-', '{"a":1}\n{"a":2}'), 'jsonl');
    assert.equal(detectFormat('-', 'a,b\n1,2'), 'csv');
    assert.equal(detectFormat('x.ndjson', '[]'), 'jsonl');
    assert.equal(detectFormat('x.csv', '{'), 'csv');
  });
});

describe('fileNameFor', () => {
  const cases: [string, unknown, string | RegExp][] = [
    ['{{invoiceNo}}.pdf', { invoiceNo: 'INV-7' }, 'INV-7.pdf'],
    ['{{customer.name}}-{{n}}', { customer: { name: 'Acme' }, n: 3 }, 'Acme-3.pdf'],
    ['{{ id }}.PDF', { id: 'x' }, 'x.PDF'],
    ['{{id}}.pdf', { id: '../../etc/passwd' }, /^[^/\\]+\.pdf$/],
    ['{{id}}.pdf', { id: 'a/b:c*?"<>|' }, /^a_b_c_+\.pdf$/],
    ['{{$row}}.pdf', {}, '007.pdf'],
  ];
  for (const [pattern, props, expected] of cases) {
    test(`${pattern} with ${JSON.stringify(props)}`, () => {
      const result = fileNameFor(pattern, props, 7, 120);
      assert.ok(result.ok, JSON.stringify(result));
      if (typeof expected === 'string') assert.equal(result.name, expected);
      else assert.match(result.name, expected);
    });
  }

  test('a missing or non-text field, or an empty name, is the row\'s failure', () => {
    assert.deepEqual(fileNameFor('{{invoiceNo}}.pdf', { other: 1 }, 1, 1), { ok: false, reason: 'the name pattern needs "invoiceNo", which this row has no text or number for' });
    assert.equal(fileNameFor('{{items}}.pdf', { items: [1] }, 1, 1).ok, false);
    assert.equal(fileNameFor('{{id}}', { id: '..' }, 1, 1).ok, false);
  });

  test('row labels are padded to the batch size so files sort in row order', () => {
    assert.equal(rowLabel(7, 9), '7');
    assert.equal(rowLabel(7, 1000), '0007');
  });
});

describe('decideRetry', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 30_000 };
  const http = (status: number, retryAfterSeconds?: number) => Object.assign(new Error(`HTTP ${status}`), { status, retryAfterSeconds });

  test('429 and 5xx from the service are retried; 4xx and row errors are not', () => {
    for (const status of [429, 500, 502, 503, 504]) assert.equal(isRetryable(http(status)), true, String(status));
    for (const status of [400, 401, 404, 413, 422]) assert.equal(isRetryable(http(status)), false, String(status));
    assert.equal(isRetryable(new ImprintError('BUSY', 'full')), true);
    assert.equal(isRetryable(new ImprintError('BROWSER_FAILED', 'crashed')), true);
    assert.equal(isRetryable(new ImprintError('RENDER_FAILED', 'template threw')), false);
    assert.equal(isRetryable(new Error('bug')), false);
    // The remote backend turns the client's errors into ImprintErrors with the HTTP error as cause.
    assert.equal(isRetryable(new ImprintError('INTERNAL', 'the API failed', { cause: http(503) })), true);
    assert.equal(isRetryable(new ImprintError('INVALID_INPUT', 'bad props', { cause: http(400) })), false);
    assert.deepEqual(decideRetry(new ImprintError('INVALID_INPUT', 'slow down', { cause: http(429, 3) }), 1, policy, 0), { retry: true, delayMs: 3000 });
  });

  test('backoff doubles with full jitter, up to the ceiling; a Retry-After is a floor', () => {
    assert.deepEqual(decideRetry(http(503), 1, policy, 0.5), { retry: true, delayMs: 50 });
    assert.deepEqual(decideRetry(http(503), 2, policy, 0.999), { retry: true, delayMs: 200 });
    assert.deepEqual(decideRetry(http(429, 2), 1, policy, 0.5), { retry: true, delayMs: 2000 });
    assert.deepEqual(decideRetry(new ImprintError('BUSY', 'full', { retryAfterSeconds: 1 }), 1, policy, 0), { retry: true, delayMs: 1000 });
    assert.deepEqual(decideRetry(http(503), 2, { ...policy, maxDelayMs: 150 }, 0.999), { retry: true, delayMs: 150 });
  });

  test('bounded: no retry after the last attempt, nor for a Retry-After longer than we wait', () => {
    assert.deepEqual(decideRetry(http(503), 3, policy, 0.5), { retry: false });
    assert.deepEqual(decideRetry(http(429, 120), 1, policy, 0.5), { retry: false });
    assert.deepEqual(decideRetry(http(400), 1, policy, 0.5), { retry: false });
  });

  test('failures no row escapes stop the batch', () => {
    assert.equal(isFatal(http(404)), true);
    assert.equal(isFatal(http(401)), true);
    assert.equal(isFatal(new ImprintError('NOT_FOUND', 'no template')), true);
    assert.equal(isFatal(new ImprintError('INVALID_INPUT', 'bad props')), false);
    assert.equal(isFatal(http(500)), false);
  });
});

describe('progress', () => {
  test('count, failures, rate and time left', () => {
    assert.equal(progressText({ total: 100, done: 25, ok: 24, failed: 1, skipped: 0 }, 5000), 'Rendered 25/100 (1 failed) · 5.0 docs/s · ETA 15 s');
    assert.equal(progressText({ total: 10, done: 10, ok: 10, failed: 0, skipped: 0 }, 2000), 'Rendered 10/10 · 5.0 docs/s');
  });

  test('plain output prints a line each tenth of the batch', () => {
    const printed = Array.from({ length: 25 }, (_, i) => i + 1).filter((done) => crossedTenth(done, 25));
    assert.deepEqual(printed, [3, 5, 8, 10, 13, 15, 18, 20, 23, 25]);
  });
});
