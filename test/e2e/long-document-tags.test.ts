/**
 * Tags by default stop at DEFAULT_TAGS_UP_TO_PAGES pages of content (core/pdf/accessibility-
 * options.ts): Chromium's tagged print of a long document takes minutes where its untagged print
 * takes seconds (bench/README.md, Tagged big documents). From the installed CLI: a template and
 * an HTML page a little past the limit print untagged when nothing is asked, tagged with
 * --tagged; a little under it, tagged as ever. The fixture is one line a sheet, cheap to print
 * either way.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfInfoFields } from '../helpers/pdf-metadata.js';
import { DEFAULT_TAGS_UP_TO_PAGES } from '../../src/core/pdf/accessibility-options.js';

const TALL = path.join(INPUTS, 'test', 'fixtures', 'accessibility', 'Tall.tsx');
const root = tempDir('long-document-tags');
const env = { IMPRINT_DATA_DIR: path.join(root, 'data') };
const OVER = DEFAULT_TAGS_UP_TO_PAGES + 5;
const UNDER = DEFAULT_TAGS_UP_TO_PAGES - 5;

after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Whether the PDF is tagged, from pdfinfo, and whether its pages are past the limit (a template's page may add one blank page at its end). */
async function printed(args: string[]): Promise<{ past: boolean; tagged: string }> {
  const out = path.join(root, `out-${Math.random().toString(36).slice(2)}.pdf`);
  const result = await runCli([...args, '--no-renderer', '-o', out], { cwd: root, env, timeoutMs: 240_000 });
  assert.equal(result.code, 0, result.describe());
  const info = pdfInfoFields(fs.readFileSync(out));
  return { past: Number(info.Pages) > DEFAULT_TAGS_UP_TO_PAGES, tagged: info.Tagged };
}

function propsFor(pages: number): string {
  const file = path.join(root, `tall-${pages}.json`);
  fs.writeFileSync(file, JSON.stringify({ pages }));
  return file;
}

test('a template past the limit prints untagged unless asked; under it, tagged', { timeout: 600_000 }, async () => {
  assert.deepEqual(await printed(['render', TALL, '--props', propsFor(OVER)]), { past: true, tagged: 'no' });
  assert.deepEqual(await printed(['render', TALL, '--props', propsFor(OVER), '--tagged']), { past: true, tagged: 'yes' });
  assert.deepEqual(await printed(['render', TALL, '--props', propsFor(UNDER)]), { past: false, tagged: 'yes' });
});

test('an HTML page past the limit prints untagged unless asked', { timeout: 600_000 }, async () => {
  const sheets = Array.from({ length: OVER }, (_, i) => `<p style="height:297mm;margin:0">Sheet ${i + 1}</p>`).join('');
  fs.writeFileSync(path.join(root, 'tall.html'), `<html lang="en"><style>@page{size:A4;margin:0}</style><body style="margin:0">${sheets}</body></html>`);
  assert.deepEqual(await printed(['generate', '--html', 'tall.html']), { past: true, tagged: 'no' });
  assert.deepEqual(await printed(['generate', '--html', 'tall.html', '--pdfua', '--title', 'Tall', '--lang', 'en']), { past: true, tagged: 'yes' });
});
