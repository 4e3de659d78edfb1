/**
 * `imprint render --batch` end to end: the real CLI as a child process, embedded mode, a real
 * Chromium; every PDF read back by its text.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, INPUTS, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

const taggedOf = (pdf: Buffer) => /^Tagged:\s+(\w+)/m.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString())?.[1];

const card = path.join(INPUTS, 'test', 'fixtures', 'pool', 'Card.tsx');
const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
const pdfsIn = (dir: string) => fs.readdirSync(dir).sort();

describe('render --batch (embedded)', () => {
  const cli = cliWithDataDir();
  const work = tempDir();

  before(async () => {
    const published = await cli.run(['publish', card, '--id', 'card']);
    assert.equal(published.code, 0, published.describe());
  });

  test('JSON Lines with a name pattern; a failing row is reported, the rest are written, exit 1, summary lists all', async () => {
    const rows = path.join(work, 'rows.jsonl');
    fs.writeFileSync(rows, jsonl([{ title: 'INV-1' }, { title: 'INV-2', fail: 'boom' }, { title: 'INV-3', customer: { name: 'Acme' } }, { title: 'INV-4' }]));
    const out = path.join(work, 'out-jsonl');
    const summaryFile = path.join(work, 'summary.json');
    const result = await cli.run(['render', 'card', '--batch', rows, '--out-dir', out, '--name', '{{title}}.pdf', '--summary', summaryFile]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /row 2: .*asked to fail: boom/);
    assert.match(result.stderr, /1 of 4 rows failed \(row 2\)/);
    assert.deepEqual(pdfsIn(out), ['INV-1.pdf', 'INV-3.pdf', 'INV-4.pdf'], 'no file for the failed row, no temporary files left');
    for (const name of ['INV-1', 'INV-3', 'INV-4']) assert.match(pdfText(path.join(out, `${name}.pdf`)), new RegExp(`Card ${name}`));
    assert.match(pdfText(path.join(out, 'INV-3.pdf')), /Customer Acme/);
    assert.doesNotMatch(pdfText(path.join(out, 'INV-4.pdf')), /Acme/, 'nothing of row 3 in row 4');

    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.equal(summary.total, 4);
    assert.equal(summary.ok, 3);
    assert.equal(summary.failed, 1);
    assert.deepEqual(
      summary.rows.map((r: { row: number; status: string; file?: string }) => [r.row, r.status, r.file]),
      [
        [1, 'ok', 'INV-1.pdf'],
        [2, 'failed', 'INV-2.pdf'],
        [3, 'ok', 'INV-3.pdf'],
        [4, 'ok', 'INV-4.pdf'],
      ],
    );
    assert.match(summary.rows[1].error, /asked to fail: boom/);

    // --skip-existing resumes: the written files are left alone, the missing one is rendered again.
    fs.rmSync(path.join(out, 'INV-3.pdf'));
    const kept = fs.statSync(path.join(out, 'INV-1.pdf')).mtimeMs;
    fs.writeFileSync(rows, jsonl([{ title: 'INV-1' }, { title: 'INV-2' }, { title: 'INV-3', customer: { name: 'Again' } }, { title: 'INV-4' }]));
    const resumed = await cli.run(['render', 'card', '--batch', rows, '--out-dir', out, '--name', '{{title}}.pdf', '--skip-existing', '--summary', summaryFile]);
    assert.equal(resumed.code, 0, resumed.describe());
    assert.deepEqual(pdfsIn(out), ['INV-1.pdf', 'INV-2.pdf', 'INV-3.pdf', 'INV-4.pdf']);
    assert.equal(fs.statSync(path.join(out, 'INV-1.pdf')).mtimeMs, kept, 'INV-1.pdf was not rewritten');
    assert.match(pdfText(path.join(out, 'INV-3.pdf')), /Customer Again/);
    const second = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.deepEqual([second.ok, second.skipped, second.failed], [2, 2, 0]);
  });

  test('a JSON array from stdin, files named by row number', async () => {
    const out = path.join(work, 'out-stdin');
    const result = await cli.run(['render', 'card', '--batch', '-', '--out-dir', out], { stdin: JSON.stringify([{ title: 'First' }, { title: 'Second' }, { title: 'Third' }]) });
    assert.equal(result.code, 0, result.describe());
    assert.deepEqual(pdfsIn(out), ['1.pdf', '2.pdf', '3.pdf']);
    assert.match(pdfText(path.join(out, '2.pdf')), /Card Second/);
    assert.match(result.stderr, /Rendered 3 of 3 rows/);
  });

  test('CSV with dotted headers nests props, rendering a template file', async () => {
    const rows = path.join(work, 'rows.csv');
    fs.writeFileSync(rows, 'title,customer.name,customer.city\nC-1,"Acme, Inc.",Lyon\nC-2,Globex,Oslo\n');
    const out = path.join(work, 'out-csv');
    const result = await cli.run(['render', card, '--batch', rows, '--out-dir', out, '--name', '{{title}}-{{customer.city}}', '--concurrency', '2']);
    assert.equal(result.code, 0, result.describe());
    assert.deepEqual(pdfsIn(out), ['C-1-Lyon.pdf', 'C-2-Oslo.pdf']);
    const text = pdfText(path.join(out, 'C-1-Lyon.pdf'));
    assert.match(text, /Card C-1/);
    assert.match(text, /Customer Acme, Inc\./);
    assert.match(text, /City Lyon/);
  });

  test('rows that cannot name their file fail on their own; the batch goes on', async () => {
    const rows = path.join(work, 'names.jsonl');
    fs.writeFileSync(rows, jsonl([{ title: 'Same' }, { title: 'Same' }, { other: 'no title' }]));
    const out = path.join(work, 'out-names');
    const result = await cli.run(['render', 'card', '--batch', rows, '--out-dir', out, '--name', '{{title}}.pdf']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /row 2: its file name Same\.pdf is already row 1's/);
    assert.match(result.stderr, /row 3: the name pattern needs "title"/);
    assert.deepEqual(pdfsIn(out), ['Same.pdf']);
  });

  test('render and generate print a tagged PDF by default (--tagged says so too); --no-tagged an untagged one', async () => {
    const tagged = await cli.run(['render', 'card', '--props', '-'], { stdin: JSON.stringify({ title: 'T' }) });
    const plain = await cli.run(['render', 'card', '--props', '-', '--no-tagged'], { stdin: JSON.stringify({ title: 'T' }) });
    assert.equal(tagged.code, 0, tagged.describe());
    assert.equal(plain.code, 0, plain.describe());
    assert.equal(taggedOf(tagged.stdout), 'yes');
    assert.equal(taggedOf(plain.stdout), 'no');
    assert.ok(tagged.stdout.includes('/StructTreeRoot') && !plain.stdout.includes('/StructTreeRoot'));

    const html = path.join(work, 'page.html');
    fs.writeFileSync(html, '<h1>Tagged page</h1><p>Text</p>');
    const generated = await cli.run(['generate', '--html', html, '--tagged']);
    assert.equal(generated.code, 0, generated.describe());
    assert.equal(taggedOf(generated.stdout), 'yes');
  });

  test('--batch needs --out-dir and does not take --props or -o (usage, exit 2)', async () => {
    const rows = path.join(work, 'rows.jsonl');
    for (const args of [[], ['--out-dir', work, '--props', rows], ['--out-dir', work, '-o', 'x.pdf']]) {
      const result = await cli.run(['render', 'card', '--batch', rows, ...args]);
      assert.equal(result.code, 2, result.describe());
    }
    const stray = await cli.run(['render', 'card', '--out-dir', work]);
    assert.equal(stray.code, 2, stray.describe());
    assert.match(stray.stderr, /--out-dir goes with --batch/);
  });
});
