import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_TAGS_UP_TO_PAGES, parseAccessibility, printAccessibility, printedAccessibility } from '../../../../src/core/pdf/accessibility-options.js';
import { parseRenderOptions } from '../../../../src/core/render-request.js';

describe('accessibility options (tagged, outline, pdfua) and their defaults', () => {
  test('nothing asked: tagged with bookmarks, no PDF/UA', () => {
    assert.deepEqual(parseAccessibility({}), {});
    assert.deepEqual(printAccessibility({}), { tagged: true, outline: true, byDefault: true });
  });
  test('a long document that asked for nothing prints untagged; one that asked for tags, bookmarks or PDF/UA keeps them', () => {
    const long = DEFAULT_TAGS_UP_TO_PAGES + 0.5;
    assert.deepEqual(printedAccessibility(printAccessibility({}), DEFAULT_TAGS_UP_TO_PAGES), { tagged: true, outline: true, byDefault: true });
    assert.deepEqual(printedAccessibility(printAccessibility({}), long), { tagged: false, outline: false, byDefault: true });
    assert.deepEqual(printedAccessibility(printAccessibility({ tagged: true }), long), { tagged: true, outline: true, byDefault: false });
    assert.deepEqual(printedAccessibility(printAccessibility({ outline: true }), long), { tagged: true, outline: true, byDefault: false });
    assert.deepEqual(printedAccessibility(printAccessibility({ pdfua: true }), long), { tagged: true, outline: true, byDefault: false });
    assert.deepEqual(printedAccessibility(printAccessibility({ outline: false }), long), { tagged: true, outline: false, byDefault: false });
  });
  test('untagged means no bookmarks unless they are asked for, which is refused', () => {
    assert.deepEqual(printAccessibility({ tagged: false }), { tagged: false, outline: false, byDefault: false });
    assert.deepEqual(printAccessibility({ outline: false }), { tagged: true, outline: false, byDefault: false });
    assert.throws(() => parseAccessibility({ tagged: false, outline: true }), (error: any) => error.code === 'USAGE' && /read from the PDF's tags/.test(error.message));
    assert.throws(() => parseAccessibility({ tagged: false, pdfua: true }), (error: any) => error.code === 'USAGE' && /PDF\/UA document is a tagged PDF/.test(error.message));
  });
  test('read by parseRenderOptions, the fields each faces shares', () => {
    assert.deepEqual(parseRenderOptions({ outline: false, pdfua: true }), { format: 'pdf', outline: false, pdfua: true });
  });
  for (const field of ['tagged', 'outline', 'pdfua']) {
    test(`${field} must be a boolean, and says so`, () => {
      assert.throws(() => parseAccessibility({ [field]: 'yes' }), (error: any) => error.code === 'USAGE' && error.message.startsWith(`Invalid ${field}: expected true or false`));
    });
  }
});
