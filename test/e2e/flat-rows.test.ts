/**
 * Flat rows grouped before a tagged print (src/core/render/flat-rows.ts), from the installed CLI:
 * 60 rows of spans under one parent print as 60 Div structure elements of their own text, not
 * 180 text runs under the parent (Chromium's tagged print is quadratic in the latter); 20 rows
 * keep the tags they always had; a warm page that grouped a long document's rows prints a short
 * one exactly as a fresh page does; an untagged print is untouched. The speed itself is a
 * bench row (bench/README.md, Tagged big documents), not asserted here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { INPUTS, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfInfoFields, pdfStructure } from '../helpers/pdf-metadata.js';
import { pdfText } from '../helpers/pdf.js';

const ROWS = path.join(INPUTS, 'test', 'fixtures', 'accessibility', 'Rows.tsx');
const root = tempDir('flat-rows');
const env = { IMPRINT_DATA_DIR: path.join(root, 'data') };

async function ok(args: string[], options: CliOptions = {}) {
  const result = await runCli(args, { cwd: root, ...options, env: { ...env, ...options.env } });
  assert.equal(result.code, 0, result.describe());
  return result;
}

function props(rows: number): string {
  const file = path.join(root, `rows-${rows}.json`);
  fs.writeFileSync(file, JSON.stringify({ rows }));
  return file;
}

/** The structure elements pdfinfo lists, by type, and the lines of the tree. */
function structure(pdf: Buffer) {
  const lines = pdfStructure(pdf).split('\n');
  const count = (type: string) => lines.filter((line) => line.trim().startsWith(type)).length;
  return { lines, count };
}

after(async () => {
  await runCli(['renderer', 'stop', '--all'], { env });
  fs.rmSync(root, { recursive: true, force: true });
});

test('60 rows of a template print as 60 Div elements, each with its own text; 20 rows as before', async () => {
  await ok(['render', ROWS, '--props', props(60), '--no-renderer', '--deterministic', '-o', 'long.pdf']);
  const long = fs.readFileSync(path.join(root, 'long.pdf'));
  assert.equal(structure(long).count('Div'), 60);
  // Each row's text inside its own Div: the last one holds line 60's runs, and only them.
  const rows = pdfStructure(long).split(/\n\s*Div\n/).slice(1);
  assert.equal(rows.length, 60);
  assert.deepEqual([...rows[59].matchAll(/"([^"]*)"/g)].map((run) => run[1]), ['Line ', '60', 'Reference ', '1059', '206.50']);
  assert.match(pdfText(long), /Line 60\s+Reference 1059\s+206\.50/);

  await ok(['render', ROWS, '--props', props(20), '--no-renderer', '--deterministic', '-o', 'short.pdf']);
  assert.equal(structure(fs.readFileSync(path.join(root, 'short.pdf'))).count('Div'), 0, 'fewer than 50 rows: untouched');
});

test('a warm page that grouped a long document prints a short one as a fresh page does', async () => {
  await ok(['renderer', 'start']);
  await ok(['render', ROWS, '--props', props(60), '--deterministic', '-o', 'warm-long.pdf']);
  await ok(['render', ROWS, '--props', props(20), '--deterministic', '-o', 'warm-short.pdf']);
  await ok(['render', ROWS, '--props', props(20), '--deterministic', '--no-renderer', '-o', 'fresh-short.pdf']);
  const warm = fs.readFileSync(path.join(root, 'warm-short.pdf'));
  assert.ok(warm.equals(fs.readFileSync(path.join(root, 'fresh-short.pdf'))), 'the same bytes on the warm page and a fresh one');
  assert.equal(structure(fs.readFileSync(path.join(root, 'warm-long.pdf'))).count('Div'), 60);
});

test('generate groups the rows of raw HTML too; an untagged print is untouched', async () => {
  const rows = Array.from({ length: 60 }, (_, i) => `<div style="display:flex;gap:12px"><span>Line ${i + 1}</span><span>Reference ${1000 + i}</span></div>`).join('');
  fs.writeFileSync(path.join(root, 'rows.html'), `<html lang="en"><body><h1>Statement</h1>${rows}</body></html>`);
  await ok(['generate', '--html', 'rows.html', '-o', 'html.pdf']);
  assert.equal(structure(fs.readFileSync(path.join(root, 'html.pdf'))).count('Div'), 60);
  await ok(['generate', '--html', 'rows.html', '--no-tagged', '-o', 'untagged.pdf']);
  assert.equal(pdfInfoFields(fs.readFileSync(path.join(root, 'untagged.pdf'))).Tagged, 'no');
});
