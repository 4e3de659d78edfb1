/**
 * Bad input gets a clear error, the documented exit code (2 for usage, 1 otherwise), and
 * nothing half-written.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, INPUTS, ROOT, tempDir } from '../helpers/cli.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');
const fixtures = path.join(INPUTS, 'test', 'fixtures', 'templates');

describe('usage errors exit 2 and say what is allowed', () => {
  const cli = cliWithDataDir();
  const cases: [string[], RegExp][] = [
    [['render', invoice, '--size', 'banana'], /Invalid size "banana".*A3, A4, A5, letter, legal/],
    [['render', invoice, '--format', 'xml'], /Invalid format "xml": use one of pdf, base64, json/],
    [['render', invoice, '--orientation', 'sideways'], /portrait or landscape/],
    [['render', invoice, '--no-such-flag'], /unknown option '--no-such-flag'/],
    [['render'], /missing required argument 'template'/],
    [['generate'], /Nothing to render: give --html/],
    [['generate', '--url', 'not a url'], /Invalid --url/],
    [['generate', '--url', 'ftp://example.org/'], /Invalid --url "ftp:\/\/example.org\/": only http and https/],
    [['generate', '--html', 'x.html', '--allow-local', '--remote', '--api-url', 'http://127.0.0.1:9', '--api-key', 'k'], /--allow-local works in embedded mode only/],
    [['serve', '--allow-host', 'http://x.org/'], /Cannot read network allow-list entry "http:\/\/x.org\/"/],
    [['serve', '--max-pages', '0'], /Invalid --max-pages "0"/],
    [['serve', '--max-pdf-size', 'huge'], /Invalid --max-pdf-size "huge"/],
    [['serve', '--request-timeout', 'soon'], /Invalid --request-timeout "soon"/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ];
  for (const [args, message] of cases) {
    test(`imprint ${args.map((a) => a.replace(ROOT, '.')).join(' ')}`, async () => {
      const result = await cli.run(args);
      assert.equal(result.code, 2, result.describe());
      assert.match(result.stderr, message);
      assert.equal(result.stdout.length, 0);
    });
  }
});

describe('bad props exit 1 and name the problem', () => {
  const cli = cliWithDataDir();
  const dir = tempDir();
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  test('a missing props file names the file', async () => {
    const result = await cli.run(['render', invoice, '--props', path.join(dir, 'nope.json')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /Cannot read the props file .*nope\.json: no such file/);
  });

  test('props that are not JSON: file, line and column', async () => {
    const file = write('bad.json', '{\n  "invoiceNo": "X",\n  "items": [1, 2,]\n}\n');
    const result = await cli.run(['render', invoice, '--props', file]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /bad\.json:3:18 is not valid JSON: expected a value/);
  });

  test('props that are not an object', async () => {
    const result = await cli.run(['render', invoice, '--props', '-'], { stdin: '[1, 2]' });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /expected a JSON object.*got an array/);
  });

  test('an invalid --id at publish states the rules', async () => {
    const result = await cli.run(['publish', invoice, '--id', '../../etc']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /Invalid template id "..\/..\/etc": use letters, digits/);
  });
});

describe('template failures point at the template source', () => {
  const cli = cliWithDataDir();

  test('a build error reports file:line:column and the esbuild message', async () => {
    const result = await cli.run(['publish', path.join(fixtures, 'Broken.tsx')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /Broken\.tsx:4:\d+: Expected "\)" but found "}"/);
  });

  test('a template that throws: its message, its source line, and no output file', async () => {
    const out = path.join(tempDir(), 'never.pdf');
    const result = await cli.run(['render', path.join(fixtures, 'Throws.tsx'), '--props', path.join(fixtures, 'explode.json'), '-o', out]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /threw while rendering: cannot render ACME/);
    assert.match(result.stderr, /at Throws\.tsx:4:\d+/);
    assert.equal(fs.existsSync(out), false, 'a failed render leaves no file');
    assert.deepEqual(fs.readdirSync(path.dirname(out)), [], 'nor a temp file');
  });

  test('an existing output file survives a failed render untouched', async () => {
    const out = path.join(tempDir(), 'keep.pdf');
    fs.writeFileSync(out, 'previous');
    const result = await cli.run(['render', path.join(fixtures, 'Throws.tsx'), '--props', path.join(fixtures, 'explode.json'), '-o', out]);
    assert.equal(result.code, 1, result.describe());
    assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
  });
});

describe('environment problems', () => {
  const cli = cliWithDataDir();

  test('an output folder that does not exist fails before rendering', async () => {
    const result = await cli.run(['render', invoice, '--props', invoiceProps, '-o', path.join(tempDir(), 'missing', 'x.pdf')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /Cannot write .*x\.pdf: the folder .* does not exist/);
  });

  test('no browser: the message says how to install one', async () => {
    const result = await cli.run(['render', invoice, '--props', invoiceProps, '--browser', '/nonexistent/chrome']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /apt-get install -y chromium/);
    assert.equal(result.stdout.length, 0);
  });
});
