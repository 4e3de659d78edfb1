/**
 * `imprint check --snapshot` end to end, the CLI as a child process on a project of its own:
 * it records, passes on the same bytes, fails on a one-word change naming the changed line and
 * writing a diff image whose highlighted pixels lie where the word is, passes a colour change
 * within --tolerance, reports as JSON, and passes again after --update.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { cliWithDataDir, INPUTS, tempDir } from '../helpers/cli.js';
import { pdfInfoFields } from '../helpers/pdf-metadata.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'snapshot');
/** The resolution `imprint check --snapshot` compares pages at. */
const DPI = 96;

const cli = cliWithDataDir();
const project = tempDir('imprint-snapshot-project-');
const template = path.join(project, 'templates', 'Letter.tsx');
const snapshots = path.join(project, 'snapshots');
const check = (...args: string[]) => cli.run(['check', '--snapshot', 'snapshots', ...args], { cwd: project, env: { SOURCE_DATE_EPOCH: undefined } });

interface Box {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Where pdftotext -bbox says `word` is on page 1, in points. */
function wordBox(pdf: string, word: string): Box {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', pdf, '-']).toString();
  const match = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${word}</word>`).exec(html);
  assert.ok(match, `"${word}" in ${pdf}:\n${html}`);
  const [xMin, yMin, xMax, yMax] = match.slice(1).map(Number);
  return { xMin, yMin, xMax, yMax };
}

/** The bounding box of the pixels pixelmatch drew as changed (pure red), in pixels. */
function highlighted(png: string): Box & { count: number } {
  const image = PNG.sync.read(fs.readFileSync(png));
  const box = { xMin: Infinity, yMin: Infinity, xMax: -Infinity, yMax: -Infinity, count: 0 };
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] === 255 && image.data[i + 1] === 0 && image.data[i + 2] === 0) {
        box.count++;
        box.xMin = Math.min(box.xMin, x);
        box.yMin = Math.min(box.yMin, y);
        box.xMax = Math.max(box.xMax, x);
        box.yMax = Math.max(box.yMax, y);
      }
    }
  }
  return box;
}

const edit = (from: string, to: string) => {
  const source = fs.readFileSync(template, 'utf8');
  assert.ok(source.includes(from), from);
  fs.writeFileSync(template, source.replace(from, to));
};

describe('imprint check --snapshot', () => {
  before(() => {
    fs.mkdirSync(path.dirname(template), { recursive: true });
    for (const file of ['Letter.tsx', 'Letter.second.props.json']) fs.copyFileSync(path.join(FIXTURES, file), path.join(project, 'templates', file));
  });

  test('without snapshots it fails and says how to record them; --update records one per PreviewProps and fixture', async () => {
    const missing = await check();
    assert.equal(missing.code, 1, missing.describe());
    assert.match(missing.stdout.toString(), /snapshot Letter: no snapshot at snapshots\/Letter\.pdf: record it with --update/);

    const recorded = await check('--update');
    assert.equal(recorded.code, 0, recorded.describe());
    assert.match(recorded.stdout.toString(), /snapshot Letter: recorded snapshots\/Letter\.pdf/);
    assert.match(recorded.stdout.toString(), /snapshot Letter\.second: recorded snapshots\/Letter\.second\.pdf/);
    assert.equal(pdfInfoFields(fs.readFileSync(path.join(snapshots, 'Letter.second.pdf'))).Title, 'Letter L-2', 'the fixture rendered with its props and metadata');
    assert.ok(!fs.existsSync(path.join(snapshots, '__diff__')), 'nothing left of the failed run');
  });

  test('an unchanged template passes on the same bytes; the snapshot is what `render --deterministic` gives', async () => {
    const result = await check();
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /snapshot Letter: same bytes/);
    assert.match(result.stdout.toString(), /snapshot Letter\.second: same bytes/);

    const rendered = path.join(project, 'rendered.pdf');
    const render = await cli.run(['render', template, '--deterministic', '-o', rendered], { cwd: project, env: { SOURCE_DATE_EPOCH: undefined } });
    assert.equal(render.code, 0, render.describe());
    assert.ok(fs.readFileSync(rendered).equals(fs.readFileSync(path.join(snapshots, 'Letter.pdf'))), 'the same bytes as the snapshot');
  });

  test('a one-word change fails: the changed line is named, and the diff image highlights the word', async () => {
    edit('your order', 'your visit');
    const result = await check();
    assert.equal(result.code, 1, result.describe());
    const stdout = result.stdout.toString();
    assert.match(stdout, /✖ snapshot Letter: changed: page 1 \(1 line of text, [\d.]+% of pixels\)/);
    assert.match(stdout, /page 1 - Thank you for your order\n.*page 1 \+ Thank you for your visit/);
    assert.match(result.stderr, /1 of 1 template failed the check/);

    const diffDir = path.join(snapshots, '__diff__', 'Letter');
    for (const file of ['page-1.expected.png', 'page-1.actual.png', 'page-1.diff.png', 'actual.pdf']) {
      assert.ok(fs.existsSync(path.join(diffDir, file)), file);
      assert.match(stdout, new RegExp(`snapshots/__diff__/Letter/${file.replace(/\./g, '\\.')}`));
    }
    // The changed pixels lie within where the old and the new word are (a pixel of slack for rounding).
    const scale = DPI / 72;
    const before = wordBox(path.join(snapshots, 'Letter.pdf'), 'order');
    const after = wordBox(path.join(diffDir, 'actual.pdf'), 'visit');
    const red = highlighted(path.join(diffDir, 'page-1.diff.png'));
    assert.ok(red.count > 0, 'some pixels are highlighted');
    const word = { xMin: Math.min(before.xMin, after.xMin) * scale - 1, yMin: Math.min(before.yMin, after.yMin) * scale - 1, xMax: Math.max(before.xMax, after.xMax) * scale + 1, yMax: Math.max(before.yMax, after.yMax) * scale + 1 };
    assert.ok(red.xMin >= word.xMin && red.xMax <= word.xMax && red.yMin >= word.yMin && red.yMax <= word.yMax, `highlighted ${JSON.stringify(red)} within the word at ${JSON.stringify(word)}`);
  });

  test('--json reports the same for CI tools', async () => {
    const result = await check('--json');
    assert.equal(result.code, 1, result.describe());
    const report = JSON.parse(result.stdout.toString());
    assert.equal(report.failed, 1);
    const [letter] = report.templates[0].snapshots;
    assert.equal(letter.name, 'Letter');
    assert.equal(letter.status, 'failed');
    assert.deepEqual(letter.changedPages[0].removedLines, ['Thank you for your order']);
    assert.deepEqual(letter.changedPages[0].addedLines, ['Thank you for your visit']);
    assert.ok(fs.existsSync(letter.changedPages[0].files.diff));
  });

  test('--update records the change, and the check passes again', async () => {
    const updated = await check('--update');
    assert.equal(updated.code, 0, updated.describe());
    assert.match(updated.stdout.toString(), /snapshot Letter: updated snapshots\/Letter\.pdf/);
    const result = await check();
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /snapshot Letter: same bytes/);
    assert.ok(!fs.existsSync(path.join(snapshots, '__diff__')));
  });

  test('a change of pixels alone fails by default and passes within --tolerance', async () => {
    edit("color: '#000000'", "color: '#555555'");
    const strict = await check();
    assert.equal(strict.code, 1, strict.describe());
    assert.match(strict.stdout.toString(), /snapshot Letter: changed: page 1 \([\d.]+% of pixels\)/);
    const tolerant = await check('--tolerance', '5');
    assert.equal(tolerant.code, 0, tolerant.describe());
    assert.match(tolerant.stdout.toString(), /snapshot Letter: same text and pixels/);
  });
});

describe('imprint check --snapshot of a template with a form field and a stamp static', () => {
  const formProject = tempDir('imprint-snapshot-form-');
  const formTemplate = path.join(formProject, 'templates', 'Slip.tsx');
  before(() => {
    fs.mkdirSync(path.dirname(formTemplate), { recursive: true });
    fs.writeFileSync(
      formTemplate,
      [
        "import { Field } from 'imprint/react';",
        'export default function Slip(props: { ref: string }) {',
        "  return <main><h1>Slip</h1><Field name=\"reference\" type=\"text\" value={props.ref} style={{ width: '40mm', height: '7mm', border: '1px solid #333' }} /></main>;",
        '}',
        "Slip.stamp = { text: 'COPY', position: 'top-right' };",
        "Slip.PreviewProps = { ref: 'REF-1' };",
      ].join('\n'),
    );
  });

  test('its snapshot is what `render --deterministic` gives: the field and the stamp included', async () => {
    const env = { SOURCE_DATE_EPOCH: undefined };
    const recorded = await cli.run(['check', '--snapshot', 'snapshots', '--update'], { cwd: formProject, env });
    assert.equal(recorded.code, 0, recorded.describe());
    const rendered = path.join(formProject, 'rendered.pdf');
    const render = await cli.run(['render', formTemplate, '--deterministic', '-o', rendered], { cwd: formProject, env });
    assert.equal(render.code, 0, render.describe());
    const snapshot = path.join(formProject, 'snapshots', 'Slip.pdf');
    assert.match(execFileSync('pdftotext', [snapshot, '-']).toString(), /\bCOPY\b/, 'the stamp is in the snapshot');
    assert.ok(fs.readFileSync(rendered).equals(fs.readFileSync(snapshot)), 'the same bytes as the snapshot');
  });
});
