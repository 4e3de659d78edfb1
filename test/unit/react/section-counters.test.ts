/** Which section a page belongs to, and the counter style a section slot becomes (pure logic of section-counters.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCounter } from '../../../src/react/counter-format.js';
import { pagesInSections, slotContent } from '../../../src/react/section-counters.js';

const numbers = { pages: 7, targets: { a: 2, b: 4, c: 4 }, sections: ['a', 'b', 'c'] };

describe('pagesInSections', () => {
  test('a page belongs to the last section started on or before it; none before the first', () => {
    const pages = pagesInSections(numbers);
    assert.equal(pages[0], undefined);
    assert.deepEqual(pages.slice(1).map((at) => [at!.section, at!.sectionPage, at!.sectionPages]), [
      [1, 1, 2],
      [1, 2, 2],
      [3, 1, 4], // b and c share page 4: it is c's
      [3, 2, 4],
      [3, 3, 4],
      [3, 4, 4],
    ]);
  });
});

describe('slotContent', () => {
  const parts = [{ text: 'Part ' }, { counter: 'section' as const, format: 'upper-roman' as const }, { text: ', page ' }, { counter: 'section-page' as const, format: 'decimal' as const }];
  test('before the numbers are known: the placeholder, no counter style', () => {
    assert.deepEqual(slotContent(parts, 'x', undefined, '<Footer>'), { content: '"Part " "00" ", page " "00"' });
  });
  test('with them: one symbol per page, empty before the first section', () => {
    const { content, rule } = slotContent(parts, 'bottom-center-«r1»', numbers, '<Footer>');
    assert.equal(content, 'counter(page, imprint-section-bottom-center-r1)');
    assert.equal(rule, '@counter-style imprint-section-bottom-center-r1 { system: fixed 1; symbols: "" "Part I, page 1" "Part I, page 2" "Part III, page 1" "Part III, page 2" "Part III, page 3" "Part III, page 4"; fallback: decimal; }');
  });
  test('an image beside a section counter is refused', () => {
    assert.throws(() => slotContent([{ image: 'logo.png' }, parts[1]], 'x', numbers, '<Footer>'), /shows text only/);
  });
});

test('formatCounter writes the CSS list styles', () => {
  assert.deepEqual([4, 14, 1994].map((n) => formatCounter(n, 'upper-roman')), ['IV', 'XIV', 'MCMXCIV']);
  assert.deepEqual([1, 26, 27, 52].map((n) => formatCounter(n, 'lower-alpha')), ['a', 'z', 'aa', 'az']);
  assert.equal(formatCounter(7, 'decimal-leading-zero'), '07');
});
