/**
 * An htmldocs project, laid out as htmldocs lays it out (documents/templates/*.tsx,
 * documents/static/, `~/` aliases from its own tsconfig, Tailwind from the project's CSS),
 * rendered unmodified through the real CLI and a real Chromium: `@htmldocs/react` resolves to
 * Imprint's compatible components. PDFs are read with pdfinfo and pdftotext.
 *
 * The project is as its user has it after `npm install` (test/helpers/template-projects.ts):
 * React 18 and @htmldocs/react itself in its node_modules, and the Tailwind its CSS imports
 * (the installed imprint carries none: Tailwind comes from the project).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, INPUTS, tempDir } from '../helpers/cli.js';
import { installedFixture } from '../helpers/template-projects.js';
import { pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';

const PROJECT = path.join(INPUTS, 'test', 'fixtures', 'htmldocs-project');
const template = (name: string) => path.join('documents', 'templates', `${name}.tsx`);

describe('an htmldocs project renders unmodified', () => {
  const cli = cliWithDataDir();
  const out = tempDir('imprint-htmldocs-');
  const run = (args: string[]) => cli.run(['--embedded', ...args], { cwd: PROJECT });
  const rendered: Record<string, string> = {};

  before(async () => {
    await installedFixture(PROJECT);
    // One CLI run per template; the assertions below read the PDFs.
    for (const name of ['Book', 'Invoice', 'Letter', 'Pamphlet']) {
      const file = path.join(out, `${name}.pdf`);
      const result = await run(['render', template(name), '-o', file]);
      assert.equal(result.code, 0, result.describe());
      rendered[name] = file;
    }
  });

  test('a 6in x 9in book: its own page size, and a footer "Page N of M" on every page', () => {
    const info = pdfInfo(rendered.Book);
    assert.ok(sizeMatches(info, 432, 648), `size ${info.widthPt}x${info.heightPt}, expected 432x648 (6in x 9in)`);
    assert.equal(info.pages, 3, 'one Page per chapter');
    for (let page = 1; page <= 3; page++) {
      assert.match(pdfText(rendered.Book, page), new RegExp(`Page ${page} of 3`), `page ${page}`);
    }
    // The chapter text comes from an imported .md file; the title from a Page.
    assert.match(pdfText(rendered.Book, 2), /Chapter 2: The Storm/);
    assert.match(pdfText(rendered.Book, 1), /The lamp had burned for ninety years/);
  });

  test('an invoice: PreviewProps, A4, the default footer, the logo from documents/static/', () => {
    const info = pdfInfo(rendered.Invoice);
    assert.ok(sizeMatches(info, 595, 842), `size ${info.widthPt}x${info.heightPt}`);
    assert.equal(info.pages, 1);
    const text = pdfText(rendered.Invoice);
    assert.match(text, /#AB2324-01/);
    assert.match(text, /Amount due \$3400\.00/);
    assert.match(text, /Page 1 of 1/);
    // The SVG logo's text is drawn only if /static/logo.svg was served to the page.
    assert.match(text, /NORTHWIND/);
  });

  test('a letter without props or PreviewProps renders with {}: letter size, a corner margin box, an odd-page footer', () => {
    const info = pdfInfo(rendered.Letter);
    assert.ok(sizeMatches(info, 612, 792), `size ${info.widthPt}x${info.heightPt}`);
    const text = pdfText(rendered.Letter);
    assert.match(text, /Northwind Traders, 12 Harbour Road/);
    assert.match(text, /Sheet 1/);
    assert.match(text, /Dear Ms\. Rivera/);
    assert.match(text, /Ada Lovelace/, 'the .txt import gives its text');
    assert.match(text, /SEALED/, 'the .svg import gives its markup');
    assert.match(text, /Terms: Net 15, by bank transfer\./, 'the .json import gives its data');
  });

  test('a custom size turned landscape; odd and even footers at one position; a header, a side and a corner box', () => {
    const info = pdfInfo(rendered.Pamphlet);
    assert.ok(sizeMatches(info, 648, 432), `size ${info.widthPt}x${info.heightPt}, expected 648x432 (9in x 6in)`);
    assert.equal(info.pages, 3);
    const pages = [1, 2, 3].map((n) => pdfText(rendered.Pamphlet, n));
    assert.match(pages[0]!, /Odd 1\/3/);
    assert.match(pages[1]!, /Even 2/);
    assert.doesNotMatch(pages[1]!, /Odd/);
    assert.match(pages[2]!, /Odd 3\/3/);
    for (const page of pages) {
      assert.match(page, /Northwind pamphlet/);
      assert.match(page, /\bSide\b/);
      assert.match(page, /\bNW\b/);
    }
  });

  test('publish says in one line that @htmldocs/react was given Imprint\'s components', async () => {
    const result = await run(['publish', template('Book')]);
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /Published book version 1/);
    const lines = result.stderr.split('\n').filter((line) => line.includes('@htmldocs/react'));
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /docs\/htmldocs\.md/);
  });

  test('check type-checks a template against the project\'s own @htmldocs/react and React 18 types, then renders its PreviewProps', async () => {
    const result = await run(['check', '--json', template('Invoice')]);
    assert.equal(result.code, 0, result.describe());
    const report = JSON.parse(result.stdout.toString()) as { failed: number; templates: Array<{ passed: boolean; typecheck: { status: string } }> };
    assert.equal(report.failed, 0, result.describe());
    assert.equal(report.templates[0]?.passed, true, result.describe());
    assert.equal(report.templates[0]?.typecheck.status, 'passed', `type-checked, not skipped:\n${result.describe()}`);
  });

  test('a template with required props and no PreviewProps still fails, saying so', async () => {
    const result = await run(['render', template('Receipt'), '-o', path.join(out, 'receipt.pdf')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /No props were given and Receipt\.tsx has no PreviewProps/);
  });

  test('a template that imports a Node built-in fails to build, saying what to do instead', async () => {
    const result = await run(['render', path.join('documents', 'broken', 'ReadsFile.tsx'), '-o', path.join(out, 'x.pdf')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /ReadsFile\.tsx:3:\d+: "node:fs" is a Node\.js module, and templates run in the browser/);
    assert.match(result.stderr, /import text from "\.\/content\.md"/);
    assert.match(result.stderr, /static\//);
  });
});
