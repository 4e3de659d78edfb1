/** The pure rules of jobs: reading a job body, a job's status from its counts, archive names, the rows' share of the pool. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { MAX_JOB_ROWS, parseJobRequest } from '../../../src/core/jobs/parse-job.js';
import { statusOf } from '../../../src/core/store/job-records.js';
import { uniqueNames } from '../../../src/server/jobs/archive.js';
import { jobSlots } from '../../../src/server/jobs/runtime.js';

// A bad size is the shared option parser's USAGE error (a 400 on the wire, as in A1).
const invalid = (pattern: RegExp) => (error: unknown) => error instanceof ImprintError && ['INVALID_INPUT', 'USAGE'].includes(error.code) && error.httpStatus === 400 && pattern.test(error.message);

describe('parseJobRequest', () => {
  test('an A1 job: template, rows of props, version, name, webhook and the render options', () => {
    const parsed = parseJobRequest({ template: 'invoice', version: 3, rows: [{ a: 1 }, { a: 2 }], name: '{{a}}.pdf', webhook: { url: 'https://example.org/h' }, size: 'letter', orientation: 'landscape' });
    assert.equal(parsed.template, 'invoice');
    assert.equal(parsed.version, 3);
    assert.deepEqual(parsed.rows, [{ a: 1 }, { a: 2 }]);
    assert.equal(parsed.name, '{{a}}.pdf');
    assert.equal(parsed.webhookUrl, 'https://example.org/h');
    assert.equal(parsed.options.orientation, 'landscape');
  });

  test('an A2 job: no template, rows of { html?, url? }', () => {
    const parsed = parseJobRequest({ rows: [{ html: '<p>x</p>' }, { url: 'https://example.org' }] });
    assert.equal(parsed.template, undefined);
    assert.equal(parsed.rows.length, 2);
  });

  const refused: [string, unknown, RegExp][] = [
    ['not an object', [1], /JSON object/],
    ['no rows', { template: 't' }, /rows/],
    ['empty rows', { template: 't', rows: [] }, /non-empty/],
    ['einvoice on html/url rows', { rows: [{ html: '<p>x</p>' }], einvoice: 'factur-x' }, /Invalid einvoice: .*pdfa only/],
    ['a row that is not an object', { template: 't', rows: [{}, 'x'] }, /rows\[1\]/],
    ['an array row', { rows: [[]] }, /rows\[0\].*html/],
    ['too many rows', { template: 't', rows: Array.from({ length: MAX_JOB_ROWS + 1 }, () => ({})) }, /at most/],
    ['an empty template', { template: '', rows: [{}] }, /template/],
    ['a version without a template', { rows: [{ html: 'x' }], version: 1 }, /version/],
    ['a bad version', { template: 't', rows: [{}], version: 0 }, /version/i],
    ['an empty name', { template: 't', rows: [{}], name: ' ' }, /name/],
    ['a webhook without url', { template: 't', rows: [{}], webhook: {} }, /webhook/],
    ['a bad size', { template: 't', rows: [{}], size: 'B99' }, /size/i],
    ['an A2 row with neither html nor url', { rows: [{ html: 'x' }, { invoiceNo: 1 }] }, /^Nothing to render in rows\[1\]/],
    ['an A2 row with empty html', { rows: [{ html: ' ' }] }, /^Invalid rows\[0\]\.html: it is empty/],
    ['a row nested past the depth limit', { template: 't', rows: [{ a: [[[[]]]] }] }, /^Invalid rows\[0\]: it nests more than 3 levels/],
    ['a row larger than a render body', { template: 't', rows: [{ a: 'x'.repeat(100) }] }, /^Invalid rows\[0\]: 108 bytes of JSON, more than the 64 bytes/],
    ['a field named as in A1', { documentId: 't', rows: [{}] }, /^Unknown field "documentId" in the job: did you mean "template"\?/],
    ['a misspelt field', { template: 't', rows: [{}], orientaton: 'portrait' }, /did you mean "orientation"\?/],
    ['an unknown field', { template: 't', rows: [{}], zzz: 1 }, /^Unknown field "zzz" in the job: a job's fields are/],
  ];
  for (const [what, body, message] of refused) {
    test(`refuses ${what}, naming the field`, () => assert.throws(() => parseJobRequest(body, { maxDepth: 3, maxBytes: 64 }), invalid(message)));
  }
});

describe('statusOf', () => {
  const cases: [string, Parameters<typeof statusOf>, string][] = [
    ['nothing started', [{ total: 3, done: 0, failed: 0, cancelled: 0 }, false, false], 'queued'],
    ['a row started', [{ total: 3, done: 0, failed: 0, cancelled: 0 }, false, true], 'running'],
    ['some done', [{ total: 3, done: 2, failed: 0, cancelled: 0 }, false, true], 'running'],
    ['every row done', [{ total: 3, done: 3, failed: 0, cancelled: 0 }, false, true], 'completed'],
    ['a row failed', [{ total: 3, done: 2, failed: 1, cancelled: 0 }, false, true], 'failed'],
    ['cancelled with rows in progress', [{ total: 3, done: 0, failed: 0, cancelled: 2 }, true, true], 'running'],
    ['cancelled, the rest finished', [{ total: 3, done: 1, failed: 0, cancelled: 2 }, true, true], 'cancelled'],
    ['cancelled before any row started', [{ total: 3, done: 0, failed: 0, cancelled: 3 }, true, false], 'cancelled'],
    ['cancelled, a row failed', [{ total: 3, done: 0, failed: 1, cancelled: 2 }, true, true], 'cancelled'],
  ];
  for (const [what, args, status] of cases) test(`${what}: ${status}`, () => assert.equal(statusOf(...args), status));
});

test('archive names: the first row keeps its name, later ones are numbered before the extension, case-insensitively', () => {
  assert.deepEqual(uniqueNames(['a.pdf', 'b.pdf', 'a.pdf', 'A.pdf', 'a-2.pdf', 'noext']), ['a.pdf', 'b.pdf', 'a-2.pdf', 'A-3.pdf', 'a-2-2.pdf', 'noext']);
});

test('jobs take every render slot, and one when the pool reports none', () => {
  assert.deepEqual([0, 1, 2, 3, 8].map(jobSlots), [1, 1, 2, 3, 8]);
});
