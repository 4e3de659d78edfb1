/**
 * One print step for every kind of page: through the real CLI, a template (with and without its
 * own `@page` size) and raw HTML print the same page box for the same request, read back with
 * pdfinfo. The default A4 used to differ by a point between them (a template 594.96 pt wide,
 * raw HTML with no size 595.92 pt): Chromium lays out a CSS page size and a paper size differently.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, INPUTS, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText, sizeMatches, type PdfInfo } from '../helpers/pdf.js';

const cli = cliWithDataDir();
const dir = tempDir('imprint-page-box-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The invoice declares `<Document size="A4">`, an `@page` rule of its own; the card declares none. */
const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');
const card = path.join(INPUTS, 'test', 'fixtures', 'pool', 'Card.tsx');
const cardProps = path.join(dir, 'card.json');
const html = path.join(dir, 'page.html');
fs.writeFileSync(cardProps, JSON.stringify({ title: 'Boxed' }));
fs.writeFileSync(html, '<h1>Raw boxed</h1>');

async function printed(name: string, args: string[], text: RegExp): Promise<PdfInfo> {
  const out = path.join(dir, `${name}.pdf`);
  const result = await cli.run([...args, '-o', out]);
  assert.equal(result.code, 0, result.describe());
  assert.match(pdfText(out), text, `${name} printed its own content`);
  return pdfInfo(out);
}

const box = (info: PdfInfo) => `${info.widthPt} x ${info.heightPt}`;

for (const [label, sizeArgs, width, height] of [
  ['no size (A4)', [], 595.28, 841.89],
  ['--orientation landscape', ['--orientation', 'landscape'], 841.89, 595.28],
  ['--size "100mm 150mm"', ['--size', '100mm 150mm'], 283.46, 425.2],
] as const) {
  test(`${label}: a template with and without its own @page size, and raw HTML, print the same page box`, async () => {
    const ownSize = await printed(`invoice ${label}`, ['render', invoice, '--props', invoiceProps, ...sizeArgs], /INV-/);
    const noSize = await printed(`card ${label}`, ['render', card, '--props', cardProps, ...sizeArgs], /Card Boxed/);
    const raw = await printed(`html ${label}`, ['generate', '--html', html, ...sizeArgs], /Raw boxed/);
    assert.ok(sizeMatches(raw, width, height), `raw HTML: ${box(raw)}, asked ${width} x ${height}`);
    assert.deepEqual([box(ownSize), box(noSize)], [box(raw), box(raw)], 'template (own @page size), template (none) and raw HTML');
  });
}
