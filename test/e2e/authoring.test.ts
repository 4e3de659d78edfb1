/**
 * Typed props end to end: `publish` stores the JSON Schema read from the template's types,
 * `schema` prints it, and `render` (published or a local file) refuses props that do not
 * match, naming each wrong path, before any browser is started. A template without types
 * publishes without a schema and renders anything.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, INPUTS, tempDir } from '../helpers/cli.js';
import { isPdf, pdfText } from '../helpers/pdf.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));
const untyped = path.join(INPUTS, 'test', 'fixtures', 'schema', 'Untyped.jsx');

/** Two wrong values and a missing one. */
function wrongProps() {
  const props = structuredClone(invoiceProps);
  props.items[2].unitPrice = '12';
  props.taxRate = 'high';
  delete props.customer.name;
  return JSON.stringify(props);
}

/** A browser that cannot start: a check that ran before it would fail for that instead. */
const NO_BROWSER = { IMPRINT_BROWSER: path.join(tempDir(), 'no-such-chromium') };

function assertNamesEachPath(stderr: string) {
  assert.ok(stderr.includes('items[2].unitPrice: expected number, got "12"'), stderr);
  assert.ok(stderr.includes('taxRate: expected number, got "high"'), stderr);
  assert.ok(stderr.includes('customer.name: required, but missing'), stderr);
  assert.doesNotMatch(stderr, /browser|chromium/i, 'no browser was asked for');
}

describe('a published template with typed props', () => {
  const cli = cliWithDataDir();

  before(async () => {
    const published = await cli.run(['publish', invoice]);
    assert.equal(published.code, 0, published.describe());
    assert.match(published.stderr, /checked against its props type/);
  });

  test('`imprint schema <id>` prints the stored JSON Schema, descriptions from the JSDoc', async () => {
    const result = await cli.run(['schema', 'invoice']);
    assert.equal(result.code, 0, result.describe());
    const schema = JSON.parse(result.stdout.toString());
    assert.equal(schema.type, 'object');
    assert.ok(schema.required.includes('invoiceNo'));
    assert.equal(schema.properties.invoiceNo.type, 'string');
    assert.equal(schema.properties.items.items.properties.unitPrice.type, 'number');
    assert.match(schema.properties.taxRate.description, /fraction/);
  });

  test('render refuses wrong props with exit 1, each wrong path named, before a browser starts', async () => {
    const result = await cli.run(['render', 'invoice', '--props', '-'], { stdin: wrongProps(), env: NO_BROWSER });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /The props of template "invoice" do not match the template's props type \(3 errors\)/);
    assertNamesEachPath(result.stderr);
    assert.equal(result.stdout.length, 0);
  });

  test('matching props render as before', async () => {
    const result = await cli.run(['render', 'invoice', '--props', '-'], { stdin: JSON.stringify(invoiceProps) });
    assert.equal(result.code, 0, result.describe());
    assert.match(pdfText(result.stdout), new RegExp(invoiceProps.invoiceNo));
  });

  test('an unknown id is still a not-found error', async () => {
    const result = await cli.run(['schema', 'no-such-template']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /No template "no-such-template"/);
  });
});

describe('a local file: the schema derived on the fly', () => {
  const cli = cliWithDataDir();

  test('render ./file.tsx checks props the same way, before a browser starts', async () => {
    const result = await cli.run(['render', invoice, '--props', '-'], { stdin: wrongProps(), env: NO_BROWSER });
    assert.equal(result.code, 1, result.describe());
    assertNamesEachPath(result.stderr);
  });

  test('`imprint schema ./file.tsx` prints the schema a publish would store', async () => {
    const result = await cli.run(['schema', invoice]);
    assert.equal(result.code, 0, result.describe());
    assert.ok(JSON.parse(result.stdout.toString()).required.includes('items'));
  });
});

describe('a template without types', () => {
  const cli = cliWithDataDir();

  test('publishes without a schema, says so, and renders any props', async () => {
    const published = await cli.run(['publish', untyped, '--id', 'untyped']);
    assert.equal(published.code, 0, published.describe());
    assert.match(published.stderr, /No props schema for .*Untyped\.jsx: the default export has no typed props parameter/);

    const schema = await cli.run(['schema', 'untyped']);
    assert.equal(schema.code, 0, schema.describe());
    assert.equal(schema.stdout.toString().trim(), 'null');
    assert.match(schema.stderr, /published without a props type/);

    const rendered = await cli.run(['render', 'untyped', '--props', '-'], { stdin: JSON.stringify({ anything: 12345 }) });
    assert.equal(rendered.code, 0, rendered.describe());
    assert.ok(isPdf(rendered.stdout));
    assert.match(pdfText(rendered.stdout), /12345/);
  });
});
