/**
 * Deterministic PDFs and document metadata, through the real CLI (embedded mode) in separate
 * processes: the same template, props and options give the same bytes; the dates come from
 * SOURCE_DATE_EPOCH, the published version or the content; the Info fields come from the
 * template's `metadata` static (a props-derived title) and the flags; Creator and Producer
 * name Imprint, never the headless browser.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cliWithDataDir, INPUTS, ROOT, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { pdfInfoFields, pdfLanguage, pdfStructure } from '../helpers/pdf-metadata.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'determinism');
const statement = path.join(FIXTURES, 'Statement.tsx');
const propsFile = path.join(FIXTURES, 'props.json');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

const cli = cliWithDataDir();
const out = tempDir('imprint-determinism-');

/** Renders with the CLI into a file of its own and returns the bytes. */
async function render(name: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Buffer> {
  const file = path.join(out, `${name}.pdf`);
  const result = await cli.run([...args, '-o', file], { env: { SOURCE_DATE_EPOCH: undefined, ...env } });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(file);
}

describe('deterministic renders (embedded CLI, one process each)', () => {
  test('a local template: two processes give byte-identical PDFs, dated by the content, with the metadata of the static', async () => {
    const args = ['render', statement, '--props', propsFile, '--deterministic'];
    const first = await render('local-1', args);
    const second = await render('local-2', args);
    assert.ok(first.equals(second), 'the same bytes from two processes');

    const info = pdfInfoFields(first);
    assert.equal(info.Title, 'Statement ST-0042', 'the title derived from the props');
    assert.equal(info.Author, 'Acme Ltd');
    assert.equal(info.Subject, 'Account statement for Harbour Books');
    assert.equal(info.Keywords, 'statement, ST-0042');
    assert.equal(pdfLanguage(first), 'en-GB');
    assert.equal(info.Creator, `Imprint ${VERSION}`);
    assert.match(info.Producer, new RegExp(`^Imprint ${VERSION.replace(/\./g, '\\.')}`));
    assert.doesNotMatch(`${info.Creator} ${info.Producer}`, /HeadlessChrome|Mozilla/);
    assert.equal(info.CreationDate, info.ModDate);
    assert.match(info.CreationDate, /^20[0-2]\d-/, 'a date derived from the content, between 2000 and 2030');
    assert.match(pdfText(first), /Statement ST-0042/);
  });

  test('SOURCE_DATE_EPOCH pins both dates, without --deterministic', async () => {
    const args = ['render', statement, '--props', propsFile];
    const first = await render('epoch-1', args, { SOURCE_DATE_EPOCH: '1700000000' });
    const second = await render('epoch-2', args, { SOURCE_DATE_EPOCH: '1700000000' });
    assert.ok(first.equals(second));
    const info = pdfInfoFields(first);
    assert.equal(info.CreationDate, '2023-11-14T22:13:20Z');
    assert.equal(info.ModDate, '2023-11-14T22:13:20Z');
  });

  test('a malformed SOURCE_DATE_EPOCH is a usage error that says what to set', async () => {
    const result = await cli.run(['render', statement, '--props', propsFile, '-o', path.join(out, 'bad.pdf')], { env: { SOURCE_DATE_EPOCH: 'yesterday' } });
    assert.equal(result.code, 2, result.describe());
    assert.match(result.stderr, /SOURCE_DATE_EPOCH="yesterday" is not a date: set it to whole seconds since 1970/);
  });

  test('flags win over the static, field by field; keywords and language from flags too', async () => {
    const pdf = await render('flags', ['render', statement, '--props', propsFile, '--title', 'Q3 statement', '--author', 'Finance', '--keywords', 'q3, finance', '--lang', 'de-CH']);
    const info = pdfInfoFields(pdf);
    assert.equal(info.Title, 'Q3 statement');
    assert.equal(info.Author, 'Finance');
    assert.equal(info.Subject, 'Account statement for Harbour Books', 'the static still gives what no flag sets');
    assert.equal(info.Keywords, 'q3, finance');
    assert.equal(pdfLanguage(pdf), 'de-CH');
    assert.equal(info.Creator, `Imprint ${VERSION}`);
  });

  test('without SOURCE_DATE_EPOCH or --deterministic the PDF carries the real time', async () => {
    const started = Math.floor(Date.now() / 1000) * 1000;
    const pdf = await render('now', ['render', statement, '--props', propsFile]);
    const created = Date.parse(pdfInfoFields(pdf).CreationDate);
    assert.ok(created >= started && created <= Date.now(), `${new Date(created).toISOString()} is the time of the render`);
  });

  test('a published template: dated by its publish time, the same bytes from two processes', async () => {
    const published = await cli.run(['publish', statement, '--id', 'statement', '--json']);
    assert.equal(published.code, 0, published.describe());
    const { publishedAt } = JSON.parse(published.stdout.toString()) as { publishedAt: string };
    const args = ['render', 'statement', '--props', propsFile, '--deterministic'];
    const first = await render('published-1', args);
    const second = await render('published-2', args);
    assert.ok(first.equals(second));
    assert.equal(pdfInfoFields(first).CreationDate, `${publishedAt.slice(0, 19)}Z`);
  });

  test('a tagged PDF keeps its structure tree through the metadata edit', async () => {
    const pdf = await render('tagged', ['render', statement, '--props', propsFile, '--tagged', '--deterministic']);
    const info = pdfInfoFields(pdf);
    assert.equal(info.Tagged, 'yes');
    assert.equal(info.Title, 'Statement ST-0042');
    const structure = pdfStructure(pdf);
    assert.match(structure, /H1 \(block\)\s+NonStruct\s+"Statement "\s+NonStruct\s+"ST-0042"/, structure);
    assert.match(structure, /P \(block\)[\s\S]*"Harbour Books"/, structure);
  });

  test('generate: raw HTML twice gives the same bytes, with a --title', async () => {
    const html = path.join(out, 'page.html');
    fs.writeFileSync(html, '<!doctype html><title>Page</title><h1>Hello</h1><p>Reproducible.</p>');
    const args = ['generate', '--html', html, '--deterministic', '--title', 'Hello page'];
    const first = await render('generate-1', args);
    const second = await render('generate-2', args);
    assert.ok(first.equals(second));
    const info = pdfInfoFields(first);
    assert.equal(info.Title, 'Hello page');
    assert.equal(info.Creator, `Imprint ${VERSION}`);
  });
});
