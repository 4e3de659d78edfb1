/**
 * The CSS the page components emit, from their props: the @page rule, margin boxes, and the
 * content values a Header or Footer slot turns into. (What Chromium prints from them is
 * tested end to end in test/e2e/components.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createElement, Fragment } from 'react';
import { cssString, textOf, toCssContent } from '../../src/react/css-content.js';
import { PageNumber, TotalPages } from '../../src/react/counters.js';
import { cssMargin, marginBoxRule, marginRulesSheet, pageRule, type PageSelector } from '../../src/react/page-css.js';

describe('pageRule', () => {
  const cases: [Parameters<typeof pageRule>[0], string][] = [
    [{}, '@page { margin: 20mm; }'],
    [{ size: 'A4', margin: '15mm 16mm' }, '@page { size: A4; margin: 15mm 16mm; }'],
    [{ size: 'letter', orientation: 'landscape', margin: 0 }, '@page { size: letter landscape; margin: 0px; }'],
    [{ orientation: 'landscape' }, '@page { size: A4 landscape; margin: 20mm; }'],
    [{ size: '100mm 150mm', margin: { top: '10mm', bottom: 24 } }, '@page { size: 100mm 150mm; margin: 10mm 0px 24px 0px; }'],
    // CSS takes no orientation after two lengths: the custom size is turned instead.
    [{ size: '6in 9in', orientation: 'portrait' }, '@page { size: 6in 9in; margin: 20mm; }'],
    [{ size: '6in 9in', orientation: 'landscape' }, '@page { size: 9in 6in; margin: 20mm; }'],
    [{ size: '300mm 10in', orientation: 'portrait' }, '@page { size: 10in 300mm; margin: 20mm; }'],
  ];
  for (const [props, css] of cases) test(JSON.stringify(props), () => assert.equal(pageRule(props), css));

  test('cssMargin keeps CSS shorthands as written', () => assert.equal(cssMargin('1in 2cm'), '1in 2cm'));
});

describe('toCssContent', () => {
  const el = createElement;
  const cases: [string, Parameters<typeof toCssContent>[0], string | undefined][] = [
    ['a string', 'ACME Ltd', '"ACME Ltd"'],
    ['quotes, backslashes and new lines escaped', 'say "hi"\\\nbye', '"say \\"hi\\"\\\\\\A bye"'],
    ['a number', 42, '"42"'],
    ['page counters in text', el(Fragment, null, 'Page ', el(PageNumber), ' of ', el(TotalPages)), '"Page " counter(page) " of " counter(pages)'],
    ['a counter style', el(PageNumber, { format: 'lower-roman' }), 'counter(page, lower-roman)'],
    ['an image', el('img', { src: '/static/logo.svg' }), 'url("/static/logo.svg")'],
    ['arrays and empty parts', ['a', null, false, ['b']], '"a" "b"'],
    ['an empty slot prints nothing', '', '""'],
    ['a slot not given', undefined, undefined],
  ];
  for (const [name, node, css] of cases) test(name, () => assert.equal(toCssContent(node, '<Header>'), css));

  test('markup a margin cannot show fails with what to use instead', () => {
    assert.throws(() => toCssContent(el('b', null, 'bold'), '<Footer>'), /<b> cannot be placed in a <Footer>.*RunningHeader/);
    const Custom = () => null;
    assert.throws(() => toCssContent(el(Custom), '<Header>'), /<Custom> cannot be placed in a <Header>/);
  });

  test('cssString of plain text', () => assert.equal(cssString('x'), '"x"'));

  test('textOf gives the glyphs a slot draws, digits for counters', () => {
    assert.equal(textOf(el(Fragment, null, 'Page ', el(PageNumber))), 'Page 0123456789');
  });
});

describe('marginBoxRule', () => {
  test('all pages: only the given slots, with the default size under the author style', () => {
    assert.equal(
      marginBoxRule('bottom', 'all', { right: 'counter(page)' }, { color: '#666', fontSize: 8 }),
      '@page { @bottom-right { content: counter(page); font-size: 8px; color: #666; } }',
    );
  });

  test('a variant empties the slots it does not give, so it replaces the whole header there', () => {
    assert.equal(
      marginBoxRule('top', 'first', { center: '"Cover"' }, {}),
      '@page:first { @top-left { content: none; } @top-center { content: "Cover"; font-size: 9pt; } @top-right { content: none; } }',
    );
  });

  test('odd pages are right-hand pages, even pages left-hand ones', () => {
    assert.match(marginBoxRule('top', 'odd', {}, {}), /^@page:right /);
    assert.match(marginBoxRule('top', 'even', {}, {}), /^@page:left /);
  });

  test('a multi-line slot keeps its line breaks', () => {
    assert.match(marginBoxRule('top', 'all', { left: '"a\\A b"' }, {}), /white-space: pre-wrap;/);
  });
});

describe('marginRulesSheet: every Header and Footer of a Document in one stylesheet', () => {
  // Chromium weighs @page selectors' specificity only within one sheet; this order makes
  // the outcome the same by specificity or by source order.
  const rule = (pages: PageSelector, name: string) => ({ pages, css: marginBoxRule('top', pages, { left: `"${name}"` }, {}) });
  const order = (sheet: string) => sheet.split('\n').map((line) => /"(\w+)"/.exec(line)?.[1]);

  test('all, then odd and even, then first, whatever order the components came in', () => {
    const sheet = marginRulesSheet([rule('first', 'cover'), rule('even', 'left'), rule('all', 'every'), rule('odd', 'right')]);
    assert.deepEqual(order(sheet), ['every', 'left', 'right', 'cover']);
    assert.match(sheet.split('\n')[0], /^@page \{/);
    assert.match(sheet.split('\n')[3], /^@page:first \{/);
  });

  test('several for the same pages keep their order: the last one wins', () => {
    assert.deepEqual(order(marginRulesSheet([rule('all', 'a'), rule('first', 'f1'), rule('all', 'b'), rule('first', 'f2')])), ['a', 'b', 'f1', 'f2']);
  });

  test('no Header or Footer, no rules', () => {
    assert.equal(marginRulesSheet([]), '');
  });
});
