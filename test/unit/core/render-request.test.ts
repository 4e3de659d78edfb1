import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseProps, parseRenderOptions } from '../../../src/core/render-request.js';

describe('parseRenderOptions (shared by the CLI flags and request bodies)', () => {
  test('defaults: pdf, no size or orientation (the template decides)', () => {
    assert.deepEqual(parseRenderOptions({}), { format: 'pdf' });
  });
  test('every field; the size checked and kept as written (the print step parses it)', () => {
    assert.deepEqual(parseRenderOptions({ format: 'json', size: '100mm 150mm', orientation: 'landscape', tagged: true }), {
      format: 'json',
      size: '100mm 150mm',
      orientation: 'landscape',
      tagged: true,
    });
  });
  const bad: [object, RegExp][] = [
    [{ format: 'xml' }, /format.*pdf, base64, json/],
    [{ format: 3 }, /format/],
    [{ size: 'banana' }, /size "banana"/],
    [{ size: 210 }, /size: expected a string/],
    [{ orientation: 'sideways' }, /portrait or landscape/],
    [{ tagged: 'yes' }, /tagged/],
  ];
  for (const [input, message] of bad) {
    test(`refuses ${JSON.stringify(input)}, naming the field`, () => assert.throws(() => parseRenderOptions(input), message));
  }
});

describe('parseProps', () => {
  test('an object passes', () => assert.deepEqual(parseProps({ a: 1 }), { a: 1 }));
  for (const [value, word] of [[[1], 'an array'], [null, 'null'], ['x', 'string'], [3, 'number']] as const) {
    test(`${JSON.stringify(value)} is refused as ${word}`, () => {
      assert.throws(() => parseProps(value), (error: any) => error.code === 'INVALID_INPUT' && error.message.includes(`got ${word}`));
    });
  }
});
