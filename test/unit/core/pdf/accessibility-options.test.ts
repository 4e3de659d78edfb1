import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAccessibility, printAccessibility } from '../../../../src/core/pdf/accessibility-options.js';
import { parseRenderOptions } from '../../../../src/core/render-request.js';

describe('accessibility options (tagged, outline, pdfua) and their defaults', () => {
  test('nothing asked: tagged with bookmarks, no PDF/UA', () => {
    assert.deepEqual(parseAccessibility({}), {});
    assert.deepEqual(printAccessibility({}), { tagged: true, outline: true });
  });
  test('untagged means no bookmarks unless they are asked for, which is refused', () => {
    assert.deepEqual(printAccessibility({ tagged: false }), { tagged: false, outline: false });
    assert.deepEqual(printAccessibility({ outline: false }), { tagged: true, outline: false });
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
