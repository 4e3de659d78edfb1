/**
 * The embedded mode end to end: the real CLI as a child process, a real Chromium, a real
 * SQLite data folder; PDFs checked by page count, page size and text.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, tempDir } from '../helpers/cli.js';
import { isPdf, pdfFonts, pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');
const invoiceData = JSON.parse(fs.readFileSync(invoiceProps, 'utf8'));

describe('publish, list, render a published template', () => {
  const cli = cliWithDataDir();
  const out = tempDir();

  before(async () => {
    const first = await cli.run(['publish', invoice]);
    assert.equal(first.code, 0, first.describe());
    assert.match(first.stdout.toString(), /Published invoice version 1/);
  });

  test('publishing again keeps the old version and adds the next', async () => {
    const second = await cli.run(['publish', invoice, '--json']);
    assert.equal(second.code, 0, second.describe());
    const published = JSON.parse(second.stdout.toString());
    assert.equal(published.id, 'invoice');
    assert.equal(published.version, 2);
    assert.match(published.uuid, /^[0-9a-f-]{36}$/);

    const list = await cli.run(['list', '--json']);
    assert.equal(list.code, 0, list.describe());
    const [entry, ...rest] = JSON.parse(list.stdout.toString());
    assert.equal(rest.length, 0);
    assert.equal(entry.id, 'invoice');
    assert.equal(entry.latestVersion, 2);
    assert.ok(!Number.isNaN(Date.parse(entry.publishedAt)));

    const piped = await cli.run(['list']);
    assert.match(piped.stdout.toString(), /^invoice\t2\t\d{4}-/);
  });

  test('--id overrides the documentId', async () => {
    const result = await cli.run(['publish', invoice, '--id', 'invoice-copy', '--json']);
    assert.equal(JSON.parse(result.stdout.toString()).id, 'invoice-copy', result.describe());
  });

  test('render -o writes an A4 invoice with the props in it', async () => {
    const file = path.join(out, 'invoice.pdf');
    const result = await cli.run(['render', 'invoice', '--props', invoiceProps, '-o', file]);
    assert.equal(result.code, 0, result.describe());
    assert.equal(result.stdout.length, 0, 'nothing on stdout when writing a file');
    const info = pdfInfo(file);
    assert.ok(info.pages >= 1 && info.pages <= 2, `pages: ${info.pages}`);
    assert.ok(sizeMatches(info, 595, 842), `size ${info.widthPt}x${info.heightPt}`);
    const text = pdfText(file);
    assert.ok(text.includes(invoiceData.invoiceNo), text);
    assert.ok(text.includes(invoiceData.customer.name));
    assert.ok(text.includes(invoiceData.items[0].description.slice(0, 20)));
  });

  test('--format base64 with props from stdin prints {"data"} of the same PDF', async () => {
    const result = await cli.run(['render', 'invoice', '--props', '-', '--format', 'base64'], { stdin: JSON.stringify({ ...invoiceData, invoiceNo: 'INV-STDIN-7' }) });
    assert.equal(result.code, 0, result.describe());
    const body = JSON.parse(result.stdout.toString());
    assert.deepEqual(Object.keys(body), ['data']);
    const pdf = Buffer.from(body.data, 'base64');
    assert.ok(isPdf(pdf));
    assert.match(pdfText(pdf), /INV-STDIN-7/);
  });

  test('--format json prints {"url"} of a PDF kept in the data folder', async () => {
    const result = await cli.run(['render', 'invoice', '--props', invoiceProps, '--format', 'json']);
    assert.equal(result.code, 0, result.describe());
    const body = JSON.parse(result.stdout.toString());
    assert.deepEqual(Object.keys(body), ['url']);
    assert.match(body.url, /^file:\/\//);
    const file = fileURLToPath(body.url);
    assert.ok(file.startsWith(cli.dataDir), `${file} is in the data folder`);
    assert.ok(pdfText(file).includes(invoiceData.invoiceNo));
  });

  test('piped with no -o, the PDF goes to stdout; -o - too', async () => {
    for (const args of [[], ['-o', '-']]) {
      const result = await cli.run(['render', 'invoice', '--props', invoiceProps, ...args]);
      assert.equal(result.code, 0, result.describe());
      assert.ok(isPdf(result.stdout), 'stdout is a PDF');
      assert.ok(pdfText(result.stdout).includes(invoiceData.invoiceNo));
    }
  });

  test('no --props renders the PreviewProps and says so on stderr', async () => {
    const result = await cli.run(['render', 'invoice']);
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stderr, /PreviewProps/);
    assert.ok(pdfInfo(result.stdout).pages >= 1);
  });

  test('an unknown id fails with exit 1 and points at imprint list', async () => {
    const result = await cli.run(['render', 'no-such-template', '--props', invoiceProps]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /no-such-template/);
    assert.match(result.stderr, /imprint list/);
    assert.equal(result.stdout.length, 0);
  });
});

describe('render a file without publishing: sizes and orientation', () => {
  const cli = cliWithDataDir();
  const cases: { args: string[]; width: number; height: number }[] = [
    { args: ['--size', '100mm 150mm'], width: 283.46, height: 425.2 },
    { args: ['--size', 'A4', '--orientation', 'landscape'], width: 842, height: 595 },
    { args: ['--size', 'letter'], width: 612, height: 792 },
    { args: ['--orientation', 'landscape'], width: 842, height: 595 },
  ];
  for (const { args, width, height } of cases) {
    test(`${args.join(' ')} -> ${width} x ${height} pt`, async () => {
      const result = await cli.run(['render', invoice, '--props', invoiceProps, ...args]);
      assert.equal(result.code, 0, result.describe());
      const info = pdfInfo(result.stdout);
      assert.ok(sizeMatches(info, width, height), `got ${info.widthPt} x ${info.heightPt}`);
      assert.ok(pdfText(result.stdout).includes(invoiceData.invoiceNo));
    });
  }

  test('nothing was published by rendering a file', async () => {
    const list = await cli.run(['list', '--json']);
    assert.deepEqual(JSON.parse(list.stdout.toString()), []);
  });
});

describe('the example templates', () => {
  const cli = cliWithDataDir();

  test('report: a table over several pages, header repeated, "Page N of M" on each', async () => {
    const result = await cli.run(['render', path.join(EXAMPLES, 'report', 'Report.tsx'), '--props', path.join(EXAMPLES, 'report', 'props.json')]);
    assert.equal(result.code, 0, result.describe());
    const { pages } = pdfInfo(result.stdout);
    assert.ok(pages >= 3, `pages: ${pages}`);
    for (let page = 1; page <= pages; page++) {
      const text = pdfText(result.stdout, page);
      assert.match(text, new RegExp(`Page ${page} of ${pages}`), `page ${page}`);
      assert.match(text, /SHIPMENT\s+DATE\s+REGION\s+CUSTOMER/, `table header on page ${page}`);
    }
  });

  test('letter: its own font from its static folder is embedded', async () => {
    const result = await cli.run(['render', path.join(EXAMPLES, 'letter', 'Letter.tsx'), '--props', path.join(EXAMPLES, 'letter', 'props.json')]);
    assert.equal(result.code, 0, result.describe());
    const fonts = pdfFonts(result.stdout);
    assert.match(fonts, /Lora-Regular/);
    assert.doesNotMatch(fonts, /DejaVu|Liberation/, 'no fallback font was used');
  });
});
