/** The parsers of a document's metadata and of determinism, and the dates derived from content. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dateFromContent, documentDate, parseDeterministic, parseSourceDateEpoch } from '../../../../src/core/pdf/document-date.js';
import { mergeMetadata, parseDocumentMetadata } from '../../../../src/core/pdf/document-metadata.js';
import { parseRenderOptions } from '../../../../src/core/render-request.js';

describe('parseDocumentMetadata', () => {
  test('reads every field; keywords from a comma-separated string or a list', () => {
    assert.deepEqual(parseDocumentMetadata({ title: 'T', author: 'A', subject: 'S', keywords: 'a, b ,,c', language: 'en-GB', creator: 'C' }), {
      title: 'T',
      author: 'A',
      subject: 'S',
      keywords: ['a', 'b', 'c'],
      language: 'en-GB',
      creator: 'C',
    });
    assert.deepEqual(parseDocumentMetadata({ keywords: ['order number', ' x '] }), { keywords: ['order number', 'x'] });
    assert.deepEqual(parseDocumentMetadata(undefined), {});
  });

  for (const [input, message] of [
    [[], /expected an object/],
    [{ titel: 'T' }, /unknown field "titel"; the fields are title, author/],
    [{ title: 1 }, /title must be a string, got number/],
    [{ keywords: 3 }, /keywords must be a string or an array of strings/],
    [{ keywords: ['a', 2] }, /keywords\[1\] must be a string/],
    [{ language: 'English please' }, /not a language tag/],
    [{ author: 'x'.repeat(2001) }, /longer than 2000 characters/],
  ] as const) {
    test(`refuses ${JSON.stringify(input).slice(0, 40)}`, () => {
      assert.throws(() => parseDocumentMetadata(input), (error: Error & { code: string }) => error.code === 'USAGE' && message.test(error.message));
    });
  }

  test("a template's metadata fails as the template's fault", () => {
    assert.throws(() => parseDocumentMetadata({ title: null }, "template's metadata", 'RENDER_FAILED'), { code: 'RENDER_FAILED', message: /Invalid template's metadata/ });
  });

  test('later layers win field by field; undefined fields do not erase', () => {
    assert.deepEqual(mergeMetadata({ title: 'T', author: 'A' }, { title: 'U', author: undefined }, undefined), { title: 'U', author: 'A' });
  });
});

describe('determinism', () => {
  test('parseDeterministic: booleans and epoch seconds', () => {
    assert.equal(parseDeterministic(true), true);
    assert.equal(parseDeterministic(false), false);
    assert.equal(parseDeterministic(1700000000), 1700000000);
    for (const bad of ['true', -1, 1.5, 253402300800]) assert.throws(() => parseDeterministic(bad), /Invalid deterministic/);
  });

  test('SOURCE_DATE_EPOCH: whole seconds; empty is unset; anything else is refused', () => {
    assert.equal(parseSourceDateEpoch('1700000000'), 1700000000);
    assert.equal(parseSourceDateEpoch(' 0 '), 0);
    assert.equal(parseSourceDateEpoch(''), undefined);
    assert.equal(parseSourceDateEpoch(undefined), undefined);
    for (const bad of ['1.5', '-3', '2024-01-01', '1e9']) assert.throws(() => parseSourceDateEpoch(bad), /is not a date/);
  });

  test('documentDate: the epoch wins; true asks the input; absent keeps the clock', () => {
    const input = new Date('2024-05-06T07:08:09Z');
    assert.equal(documentDate(1700000000, () => input)?.toISOString(), '2023-11-14T22:13:20.000Z');
    assert.equal(documentDate(true, () => input), input);
    assert.equal(documentDate(false, () => input), undefined);
    assert.equal(documentDate(undefined, () => input), undefined);
  });

  test('dates from content: stable, within 2000-2030, and moved by a change', () => {
    const a = dateFromContent('<h1>a</h1>', '');
    assert.equal(a.getTime(), dateFromContent('<h1>a</h1>', '').getTime());
    assert.notEqual(a.getTime(), dateFromContent('<h1>b</h1>', '').getTime());
    assert.notEqual(dateFromContent('ab', '').getTime(), dateFromContent('a', 'b').getTime(), 'parts are kept apart');
    assert.ok(a.getUTCFullYear() >= 2000 && a.getUTCFullYear() < 2030);
    assert.equal(a.getUTCMilliseconds(), 0, 'whole seconds, as a PDF date holds');
  });

  test('parseRenderOptions reads both extensions', () => {
    assert.deepEqual(parseRenderOptions({ deterministic: 5, metadata: { title: 'x' } }), { format: 'pdf', deterministic: 5, metadata: { title: 'x' } });
  });
});
