import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createElement as h, Fragment } from 'react';
import { marginContent, marginText } from '../../../../src/compat/htmldocs/margin-content.js';
import { PageNumber, TotalPages } from '../../../../src/react/counters.js';

describe('htmldocs margin-box children as CSS content', () => {
  test("htmldocs' default footer markup: Page {currentPage} of {totalPages}", () => {
    const node = h('span', { className: 'page-number' }, 'Page ', h(PageNumber), ' of ', h(TotalPages));
    assert.equal(marginContent(node), '"Page " counter(page) " of " counter(pages)');
  });

  test("htmldocs' own counter spans, images, line breaks, fragments and plain components", () => {
    const Label = ({ text }: { text: string }) => h('strong', null, text);
    const node = h(Fragment, null, h(Label, { text: 'Acme' }), h('br'), h('span', { className: 'x page-counter' }), '/', h('span', { className: 'pages-counter' }), h('img', { src: '/static/logo.svg' }));
    assert.equal(marginContent(node), '"Acme" "\\A " counter(page) "/" counter(pages) url("/static/logo.svg")');
  });

  test('nothing printable is an empty string; quotes are escaped', () => {
    assert.equal(marginContent(null), '""');
    assert.equal(marginContent(h('div', null, false)), '""');
    assert.equal(marginContent('Say "hi"'), '"Say \\"hi\\""');
  });

  test('the text to load fonts for includes digits when a counter is drawn', () => {
    assert.equal(marginText('"Page " counter(page)'), 'Page 0123456789');
    assert.equal(marginText('"Acme"'), 'Acme');
  });
});
