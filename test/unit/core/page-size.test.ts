import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDocumentSize, NAMED_SIZES, parseCssPageSize, parseDocumentSize, parseOrientation, resolvePageSetup } from '../../../src/core/page-size.js';
import { pageSizeCss } from '../../../src/core/render/print-pdf.js';

const pt = (size: { widthPt: number; heightPt: number }) => [Number(size.widthPt.toFixed(2)), Number(size.heightPt.toFixed(2))];

describe('parseDocumentSize (api.md A4)', () => {
  const cases: [string, number[]][] = [
    ['A4', [595.28, 841.89]],
    ['a4', [595.28, 841.89]],
    ['A3', [841.89, 1190.55]],
    ['A5', [419.53, 595.28]],
    ['letter', [612, 792]],
    ['legal', [612, 1008]],
    ['100mm 150mm', [283.46, 425.2]],
    ['8.5in 11in', [612, 792]],
    ['21cm 29.7cm', [595.28, 841.89]],
    ['800px 600px', [600, 450]],
    ['.5in 1in', [36, 72]],
  ];
  for (const [input, expected] of cases) {
    test(`${input} -> ${expected.join(' x ')} pt`, () => assert.deepEqual(pt(parseDocumentSize(input)), expected));
  }

  for (const bad of ['banana', '', '100mm', '100mm  150mm', '100 150', '100pt 150pt', '0mm 10mm', '-5mm 10mm', '10mm 10mm 10mm', 'A6']) {
    test(`rejects ${JSON.stringify(bad)} as a usage error that lists what is allowed`, () => {
      assert.throws(() => parseDocumentSize(bad), (error: any) => error.code === 'USAGE' && /A3, A4, A5, letter, legal/.test(error.message));
    });
  }
});

describe('checkDocumentSize: sizes travel as written', () => {
  test('a valid size comes back exactly as given, for the print step (or a remote service) to parse', () => {
    for (const written of ['100mm 150mm', 'letter', 'a4', '8.5in 11in']) assert.equal(checkDocumentSize(written), written);
  });
  test('an invalid one is refused with the same words as parseDocumentSize', () => {
    assert.throws(() => checkDocumentSize('banana'), (error: any) => error.code === 'USAGE' && /Invalid size "banana"/.test(error.message));
  });
});

describe('pageSizeCss: the rule the print step imposes', () => {
  test('a requested size beats the page\'s own @page size; the default A4 gives way to it', () => {
    assert.equal(pageSizeCss(resolvePageSetup({ size: NAMED_SIZES.A5 })), '@page { size: 419.528pt 595.276pt !important; }');
    assert.equal(pageSizeCss(resolvePageSetup({})), '@page { size: 595.276pt 841.890pt; }');
  });
});

describe('parseDocumentSize: each side within a PDF page\'s limits (3pt to 200in)', () => {
  for (const ok of ['200in 200in', '5080mm 508cm', '19200px 4px', '1.06mm 1.06mm', '3in 0.05in']) {
    test(`accepts ${ok}`, () => assert.doesNotThrow(() => parseDocumentSize(ok)));
  }
  // Each of these reached Chromium and came back as a 500 ("Printing failed", or a paperWidth of Infinity).
  for (const bad of ['99999in 1in', '201in 10in', '1000in 10in', '5mm 0.5mm', '1px 1px', `${'9'.repeat(400)}mm 5mm`]) {
    test(`refuses ${bad.slice(0, 20)}, naming the field and the range`, () =>
      assert.throws(() => parseDocumentSize(bad), (e: any) => e.code === 'USAGE' && /^Invalid size "/.test(e.message) && /from 3pt .* to 200in/.test(e.message) && e.message.length < 300));
  }
});

describe('parseOrientation', () => {
  test('accepts the two orientations', () => {
    assert.equal(parseOrientation('portrait'), 'portrait');
    assert.equal(parseOrientation('landscape'), 'landscape');
  });
  test('rejects anything else, naming the choices', () => {
    assert.throws(() => parseOrientation('sideways'), /portrait or landscape/);
  });
});

describe('parseCssPageSize', () => {
  test('a named size with an orientation', () => assert.deepEqual(parseCssPageSize('a4 landscape'), { size: NAMED_SIZES.A4, orientation: 'landscape' }));
  test('two lengths', () => assert.deepEqual(pt(parseCssPageSize('100mm 150mm')!.size!), [283.46, 425.2]));
  test('one length makes a square page', () => assert.deepEqual(pt(parseCssPageSize('4in')!.size!), [288, 288]));
  test('only an orientation', () => assert.deepEqual(parseCssPageSize('landscape'), { size: undefined, orientation: 'landscape' }));
  test('auto and nonsense say nothing', () => {
    assert.equal(parseCssPageSize('auto'), undefined);
    assert.equal(parseCssPageSize('huge landscape'), undefined);
  });
});

describe('resolvePageSetup (api.md B: request, else template CSS, else A4 portrait)', () => {
  test('nothing asked: the template CSS decides, A4 as the fallback', () => {
    assert.deepEqual(resolvePageSetup({}), { size: NAMED_SIZES.A4, preferCssPageSize: true });
  });
  test('a requested size wins over the CSS', () => {
    const setup = resolvePageSetup({ size: NAMED_SIZES.letter }, { size: NAMED_SIZES.A5 });
    assert.deepEqual(setup, { size: NAMED_SIZES.letter, preferCssPageSize: false });
  });
  test('landscape swaps a portrait size', () => {
    assert.deepEqual(pt(resolvePageSetup({ size: NAMED_SIZES.A4, orientation: 'landscape' }).size), [841.89, 595.28]);
  });
  test('a custom size is taken as written when no orientation is asked', () => {
    const wide = { widthPt: 500, heightPt: 300 };
    assert.deepEqual(resolvePageSetup({ size: wide }).size, wide);
    assert.deepEqual(resolvePageSetup({ size: wide, orientation: 'portrait' }).size, { widthPt: 300, heightPt: 500 });
  });
  test('only an orientation turns the template CSS size', () => {
    assert.deepEqual(pt(resolvePageSetup({ orientation: 'landscape' }, { size: NAMED_SIZES.A5 }).size), [595.28, 419.53]);
  });
  test('only an orientation, no CSS size: A4 in that orientation', () => {
    assert.deepEqual(pt(resolvePageSetup({ orientation: 'landscape' }).size), [841.89, 595.28]);
  });
});
