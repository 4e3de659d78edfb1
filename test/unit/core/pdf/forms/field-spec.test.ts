/** What the page reports of its `<Field>`s, checked before the PDF is touched (core/pdf/forms/field-spec.ts), and the flatten option. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFieldSpecs } from '../../../../../src/core/pdf/forms/field-spec.js';
import { parseRenderOptions } from '../../../../../src/core/render-request.js';
import { FIELD_LINK_ORIGIN } from '../../../../../src/runtime/page-protocol.js';

const link = (id: string) => `${FIELD_LINK_ORIGIN}${id}`;
const refused = (fields: unknown, message: RegExp) => assert.throws(() => parseFieldSpecs(fields), (error: Error & { code?: string }) => error.code === 'RENDER_FAILED' && message.test(error.message));

describe('parseFieldSpecs', () => {
  test('no fields: nothing to do', () => {
    assert.deepEqual(parseFieldSpecs(undefined), []);
  });

  test('reads each field; flags default to false', () => {
    const [text, radio] = parseFieldSpecs([
      { name: 'customer.email', type: 'text', link: link('a'), value: 'x@y', label: 'E-mail', required: true, fontSize: 9 },
      { name: 'pay', type: 'radio', link: link('b'), value: 'card', checked: true },
    ]);
    assert.deepEqual(text, { name: 'customer.email', type: 'text', link: link('a'), value: 'x@y', label: 'E-mail', required: true, readOnly: false, checked: false, fontSize: 9, format: undefined, maxLength: undefined });
    assert.equal(radio!.checked, true);
  });

  test('the buttons of one radio group share a name', () => {
    assert.equal(parseFieldSpecs([1, 2].map((n) => ({ name: 'pay', type: 'radio', link: link(String(n)), value: `v${n}` }))).length, 2);
  });

  test('refused, naming the field', () => {
    refused([{ name: 'a..b', type: 'text', link: link('a') }], /name "a\.\.b"/);
    refused([{ name: 'a', type: 'signature', link: link('a') }], /type "signature": use one of text, multiline/);
    refused([{ name: 'a', type: 'text', link: 'https://example.com/' }], /lost its box's link/);
    refused([{ name: 'a', type: 'radio', link: link('a') }], /radio <Field name="a"> has no value/);
    refused([{ name: 'c', type: 'select', link: link('a'), options: [] }], /needs options/);
    refused([{ name: 'c', type: 'select', link: link('a'), options: ['x'], value: 'y' }], /value "y", which is not one of its options \(x\)/);
    refused([{ name: 'a', type: 'text', link: link('a'), fontSize: -1 }], /fontSize -1: expected a positive number/);
    refused(
      [
        { name: 'a', type: 'text', link: link('a') },
        { name: 'a', type: 'checkbox', link: link('b') },
      ],
      /Two <Field>s are named "a" \(text and checkbox\)/,
    );
    refused(
      [
        { name: 'customer', type: 'text', link: link('a') },
        { name: 'customer.email', type: 'text', link: link('b') },
      ],
      /"customer" and "customer\.email" clash/,
    );
  });
});

describe('the flatten request field', () => {
  test('true or false; anything else is a usage error', () => {
    assert.equal(parseRenderOptions({ flatten: true }).flatten, true);
    assert.equal(parseRenderOptions({}).flatten, undefined);
    assert.throws(() => parseRenderOptions({ flatten: 'yes' }), /Invalid flatten: expected true or false, got "yes"/);
  });
});
