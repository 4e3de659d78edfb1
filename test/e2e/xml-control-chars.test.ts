/**
 * Issue 41, case 5: characters XML 1.0 cannot carry (C0 controls but tab, line feed and carriage
 * return; U+FFFE, U+FFFF; lone surrogates), which no escaping can save, are refused where they
 * come in, naming the field and the character: an e-invoice's fields (`imprint einvoice`, and so
 * the Factur-X XML in a PDF and the API, which run the same check) and a PDF's metadata
 * (`--title`, which goes into the PDF/A's XMP). Before, they gave exit 0 and ill-formed XML.
 * Markup, `&` and `]]>` keep being escaped, and tab and line feed stay allowed (the control).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';

const TEMPLATE = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const PROPS = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));
const work = tempDir('imprint-xml-chars-');
after(() => fs.rmSync(work, { recursive: true, force: true }));
const cli = (args: string[]) => runCli([...args, '--data-dir', path.join(work, 'data')], { timeoutMs: 240_000, cwd: work });

function propsFile(name: string, change: (props: typeof PROPS) => void): string {
  const props = structuredClone(PROPS);
  change(props);
  const file = path.join(work, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(props));
  return file;
}

const refused: [string, string, (props: typeof PROPS) => void, RegExp][] = [
  ['U+0001 in the seller name', 'u0001', (p) => (p.seller.name = 'Northwind\u0001 Studio'), /seller\.name holds U\+0001 at character 10/],
  ['U+000B in the buyer name', 'u000b', (p) => (p.customer.name = 'Acme\u000BCorp'), /buyer\.name holds U\+000B at character 5/],
  ['U+001F in a line', 'u001f', (p) => (p.items[0].description = 'Design\u001F work'), /lines\[0\]\.name holds U\+001F/],
  ['U+FFFF in the seller name', 'uffff', (p) => (p.seller.name = 'North\uFFFFwind'), /seller\.name holds U\+FFFF/],
];

for (const [what, name, change, message] of refused) {
  test(`imprint einvoice refuses ${what}: exit 1 naming the field and the character, no XML written`, async () => {
    const out = path.join(work, `${name}.xml`);
    const result = await cli(['einvoice', TEMPLATE, '--props', propsFile(name, change), '-o', out]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, message, result.describe());
    assert.match(result.stderr, /XML 1\.0 cannot carry/);
    assert.equal(fs.existsSync(out), false, 'no XML written');
  });
}

test('a seller name with markup, &, ]]>, a tab and a line feed: well-formed XML that keeps them', async () => {
  const out = path.join(work, 'markup.xml');
  const result = await cli(['einvoice', TEMPLATE, '--props', propsFile('markup', (p) => (p.seller.name = 'A & B <Studio> ]]>\tNorth\nwind')), '-o', out]);
  assert.equal(result.code, 0, result.describe());
  execFileSync('xmllint', ['--noout', out]);
  assert.match(fs.readFileSync(out, 'utf8'), /A &amp; B &lt;Studio&gt; \]\]&gt;\tNorth\nwind/);
});

test('render --title with U+0001 for a PDF/A: a usage error naming the title and the character, no PDF', async () => {
  const out = path.join(work, 'title.pdf');
  const result = await cli(['render', TEMPLATE, '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '--pdfa', '2b', '--title', 'Invoice\u0001 42', '-o', out]);
  assert.equal(result.code, 2, result.describe());
  assert.match(result.stderr, /title holds U\+0001 at character 8/);
  assert.equal(fs.existsSync(out), false);
});
