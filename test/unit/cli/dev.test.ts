/**
 * The studio's file rules: which props files a template has (its own and its fixtures, the
 * snapshot cases' files), that "save as fixture" writes `<Name>.<label>.props.json` and never
 * overwrites or escapes the folder, and how an error's `file:line:column` becomes a file to open.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { locateError } from '../../../src/cli/dev/error-location.js';
import { listFixtures, readFixture, saveFixture } from '../../../src/cli/dev/props-fixtures.js';

function folder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-studio-'));
  fs.writeFileSync(path.join(dir, 'Invoice.tsx'), 'export default () => null;\n');
  return { dir, template: path.join(dir, 'Invoice.tsx') };
}

test('the props files of a template: its own first, then its fixtures by name; another template\'s are not', () => {
  const { dir, template } = folder();
  assert.deepEqual(listFixtures(template), []);
  fs.writeFileSync(path.join(dir, 'Invoice.props.json'), '{"number":"1"}');
  fs.writeFileSync(path.join(dir, 'Invoice.long.props.json'), '{}');
  fs.writeFileSync(path.join(dir, 'Invoice.empty.props.json'), '{}');
  fs.writeFileSync(path.join(dir, 'Letter.props.json'), '{}');
  assert.deepEqual(
    listFixtures(template).map((f) => f.file),
    ['Invoice.props.json', 'Invoice.empty.props.json', 'Invoice.long.props.json'],
  );
  assert.deepEqual(readFixture(template, 'Invoice.props.json'), { number: '1' });
});

test('only a listed props file is read: a name from a URL cannot reach another file', () => {
  const { template } = folder();
  assert.throws(() => readFixture(template, '../../etc/passwd'), { code: 'NOT_FOUND' });
  assert.throws(() => readFixture(template, 'Letter.props.json'), { code: 'NOT_FOUND' });
});

test('save as fixture writes <Name>.<label>.props.json, refuses a bad label, never overwrites', () => {
  const { dir, template } = folder();
  assert.deepEqual(saveFixture(template, 'long-address', { number: 'INV-1' }), { file: 'Invoice.long-address.props.json' });
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'Invoice.long-address.props.json'), 'utf8')), { number: 'INV-1' });
  assert.throws(() => saveFixture(template, 'long-address', {}), (error: Error & { code: string }) => error.code === 'INVALID_INPUT' && /exists already/.test(error.message));
  for (const label of ['', '../x', 'a/b', 'a.b', '.hidden']) {
    assert.throws(() => saveFixture(template, label, {}), { code: 'INVALID_INPUT' }, label);
  }
  assert.throws(() => saveFixture(template, 'list', [1, 2]), { code: 'INVALID_INPUT' });
  assert.deepEqual(fs.readdirSync(dir).sort(), ['Invoice.long-address.props.json', 'Invoice.tsx']);
});

test("an error's first file:line:column becomes an absolute path, if the file is there", () => {
  const { dir, template } = folder();
  const relative = path.relative(process.cwd(), template);
  assert.deepEqual(locateError(`The template failed to build: ${relative}:12:5: Expected ">"`, []), { file: template, line: 12, column: 5 });
  // A render error names the file relative to the template's project.
  assert.deepEqual(locateError('threw while rendering: boom (at Invoice.tsx:3:9)', [dir]), { file: template, line: 3, column: 9 });
  assert.equal(locateError('boom (at Missing.tsx:3:9)', [dir]), undefined);
  assert.equal(locateError('no position here', [dir]), undefined);
  assert.equal(locateError(undefined, [dir]), undefined);
});
