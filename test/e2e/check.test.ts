/**
 * `imprint check` as CI runs it: the real CLI over real templates, its report on stdout and
 * its exit code. test/fixtures/check holds one template per kind of failure, and one that passes.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, INPUTS, tempDir, type CliResult } from '../helpers/cli.js';
import { blockOf } from '../helpers/check-report.js';

const cli = cliWithDataDir();
const fixtures = path.join(INPUTS, 'test', 'fixtures', 'check');

describe('imprint check on the example templates', () => {
  test('all three pass: exit 0 and a summary', async () => {
    const result = await cli.run(['check', ...['invoice', 'report', 'letter'].map((name) => path.join(EXAMPLES, name))]);
    assert.equal(result.code, 0, result.describe());
    const report = result.stdout.toString();
    for (const file of ['Invoice.tsx', 'Report.tsx', 'Letter.tsx']) assert.match(blockOf(report, file), /✔ .*PreviewProps match the props type/);
    assert.match(report, /3 templates checked: 3 passed, 0 failed/);
  });
});

describe('imprint check on templates with problems', () => {
  let result: CliResult;
  let report: string;

  before(async () => {
    result = await cli.run(['check', fixtures]);
    report = result.stdout.toString();
  });

  test('exit 1, a summary that counts both, and the error says how many failed', () => {
    assert.equal(result.code, 1, result.describe());
    assert.match(report, /8 templates checked: 1 passed, 7 failed/);
    assert.match(result.stderr, /7 of 8 templates failed the check/);
  });

  test('a template without problems passes among them', () => {
    assert.match(blockOf(report, 'Good.tsx'), /^✔ /);
  });

  const cases: [string, RegExp][] = [
    ['BuildError.jsx', /The template failed to build: .*BuildError\.jsx:5:1: Unexpected end of file/],
    ['Throws.tsx', /threw while rendering: No items to list \(at Throws\.tsx:3:\d+\)/],
    ['ConsoleError.tsx', /console error: total is not whole: 12\.5 \(at ConsoleError\.tsx:3:\d+\)/],
    ['MissingFont.tsx', /failed request: \/static\/fonts\/missing\.woff2: 404[\s\S]*font failed to load: Gone/],
    ['NetworkImage.tsx', /failed request: https:\/\/images\.example\.com\/logo\.png: blocked: templates render without network access/],
    ['BadPreview.tsx', /PreviewProps: lines\[0\]\.amount: expected number, got "12"/],
    ['NoPreview.tsx', /no PreviewProps object to render/],
  ];
  for (const [file, problem] of cases) {
    test(`${file} fails, and the report says why`, () => {
      const block = blockOf(report, file);
      assert.match(block, /^✖ /);
      assert.match(block, problem);
    });
  }
});

describe('imprint check usage', () => {
  test('with no files and no templates/ folder here: a usage error, exit 2', async () => {
    const result = await cli.run(['check'], { cwd: tempDir() });
    assert.equal(result.code, 2, result.describe());
    assert.match(result.stderr, /No templates\/ folder here/);
  });
});
