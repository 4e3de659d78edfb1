import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../../src/core/errors.js';
import { checkDocumentLimits } from '../../../../src/core/limits/document-limits.js';
import { formatBytes } from '../../../../src/core/limits/format-bytes.js';
import { DEFAULT_RENDER_LIMITS, NO_RENDER_LIMITS } from '../../../../src/core/limits/render-limits.js';
import { parseByteSize } from '../../../../src/backend/byte-size.js';

const pdfWithPages = (count: number, padding = 0) =>
  Buffer.from(`%PDF-1.4\n3 0 obj\n<</Type /Pages\n/Count ${count}\n/Kids []>>\nendobj\n${' '.repeat(padding)}%%EOF`, 'latin1');

const isError = (code: string, pattern: RegExp, status: number) => (error: unknown) =>
  error instanceof ImprintError && error.code === code && error.httpStatus === status && pattern.test(error.message);

describe('checkDocumentLimits', () => {
  const limits = { maxPages: 1000, maxPdfBytes: 4096 };

  test('at the page limit: returned', () => assert.doesNotThrow(() => checkDocumentLimits(pdfWithPages(1000), limits)));
  test('one page more: 422 naming both counts and the flag that raises the limit', () => {
    assert.throws(() => checkDocumentLimits(pdfWithPages(1001), limits), isError('DOCUMENT_TOO_LARGE', /has 1001 pages, more than the 1000 pages per document/, 422));
    assert.throws(() => checkDocumentLimits(pdfWithPages(1001), limits), isError('DOCUMENT_TOO_LARGE', /raise the limit \(`imprint serve --max-pages`\)/, 422));
  });
  test('at the size limit: returned', () => {
    const pdf = pdfWithPages(1, 0);
    assert.doesNotThrow(() => checkDocumentLimits(pdf, { maxPages: 10, maxPdfBytes: pdf.length }));
  });
  test('one byte more: 422 naming the limit and its flag', () => {
    const pdf = pdfWithPages(1, 5000);
    assert.throws(() => checkDocumentLimits(pdf, limits), isError('DOCUMENT_TOO_LARGE', /is 4\.\d KiB, larger than the 4 KiB per document/, 422));
    assert.throws(() => checkDocumentLimits(pdf, limits), isError('DOCUMENT_TOO_LARGE', /raise the limit \(`imprint serve --max-pdf-size`\)/, 422));
  });
  test('a PDF whose pages cannot be counted is refused, not passed', () => {
    assert.throws(() => checkDocumentLimits(Buffer.from('%PDF-1.4\n%%EOF'), limits), isError('INTERNAL', /no readable page tree/, 500));
  });
  test('no limits (the local CLI): nothing is read or refused', () => {
    assert.doesNotThrow(() => checkDocumentLimits(Buffer.from('not a pdf at all'), NO_RENDER_LIMITS));
  });
  test('the defaults: 1000 pages, 100 MiB, props 32 deep', () => {
    assert.deepEqual(DEFAULT_RENDER_LIMITS, { maxPropsDepth: 32, maxPages: 1000, maxPdfBytes: 100 * 1024 * 1024 });
  });
});

describe('sizes in messages and flags', () => {
  const formatted: [number, string][] = [
    [12, '12 bytes'],
    [4096, '4 KiB'],
    [10 * 1024 * 1024, '10 MiB'],
    [150 * 1024 * 1024, '150 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
  ];
  for (const [bytes, text] of formatted) test(`formatBytes(${bytes}) = ${text}`, () => assert.equal(formatBytes(bytes), text));

  const parsed: [string, number][] = [
    ['100MiB', 100 * 1024 ** 2],
    ['100 MiB', 100 * 1024 ** 2],
    ['512kib', 512 * 1024],
    ['10MB', 10_000_000],
    ['1.5GiB', 1.5 * 1024 ** 3],
    ['4096', 4096],
    ['20b', 20],
  ];
  for (const [text, bytes] of parsed) test(`parseByteSize(${JSON.stringify(text)}) = ${bytes}`, () => assert.equal(parseByteSize(text, '--max-pdf-size'), bytes));
  for (const text of ['', '0', '-5MiB', 'lots', '10 parsecs', '1e9', 'MiB']) {
    test(`parseByteSize refuses ${JSON.stringify(text)}`, () => assert.throws(() => parseByteSize(text, '--max-pdf-size'), isError('USAGE', /Invalid --max-pdf-size/, 400)));
  }
});
