/**
 * The library's `prepend`/`append` (issue 39, merging): a Node app of the user's imports
 * `imprint` by its name (the installed package under test; library-app-kit.ts) and passes PDFs as bytes (a Buffer, a Uint8Array) or by URL; the
 * options type-check under tsc --strict against the package's own types, and the result is
 * checked by content: pdfinfo's page count and qpdf's outline, one entry per part.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { pdfInfo } from '../helpers/pdf.js';
import { makeLibraryApp, runLibraryApp, typecheckLibraryApp } from './library-app-kit.js';

const COMMAND_MS = 180_000;

/** The app: a cover and terms made by the library itself, then a letter with both around it, and a part that is no PDF. */
const APP_TS = `import fs from 'node:fs';
import { createImprint, type GenerateOptions, type MergePart } from 'imprint';

const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });
try {
  const cover = await imprint.generate({ html: '<title>Cover letter</title><h1>Dear customer</h1>' });
  fs.writeFileSync('terms.pdf', await imprint.generate({ html: '<title>Terms</title><h1>Terms one</h1><h1 style="break-before: page">Terms two</h1>' }));
  const parts: GenerateOptions = {
    prepend: [{ pdf: cover, name: 'cover.pdf' }],
    append: [{ pdf: fs.readFileSync('terms.pdf') }],
  };
  fs.writeFileSync('pack.pdf', await imprint.generate({ html: '<title>Letter</title><p>The letter</p>' }, parts));
  const notPdf: MergePart = { pdf: new TextEncoder().encode('just text'), name: 'notes.pdf' };
  try {
    await imprint.generate({ html: '<p>x</p>' }, { append: [notPdf] });
    console.log('refused: no');
  } catch (error) {
    console.log('refused:', (error as { code?: string }).code, (error as Error).message);
  }
  // @ts-expect-error a part is { url } or { pdf, name? }: a path is read by the app, not the library
  const wrong: MergePart = { file: 'terms.pdf' };
  console.log(Object.keys(wrong));
} finally {
  await imprint.close();
}
`;

describe('a library user merges PDFs around a document', () => {
  const cli = cliWithDataDir();
  const app = path.join(tempDir('imprint-lib-merge-'), 'app');

  before(() => makeLibraryApp(app, 'merge-app', { 'app.ts': APP_TS }));

  test("prepend and append type-check under tsc --strict against the installed package's types", { timeout: COMMAND_MS }, async () => {
    const checked = await typecheckLibraryApp(app, ['app.ts'], COMMAND_MS);
    assert.equal(checked.code, 0, checked.describe());
  });

  test('bytes as a Buffer and a Uint8Array: pages summed, one outline entry per part; a part that is no PDF is INVALID_INPUT naming it', { timeout: COMMAND_MS }, async () => {
    const ran = await runLibraryApp(app, 'app', { IMPRINT_DATA_DIR: cli.dataDir }, COMMAND_MS);
    assert.equal(ran.code, 0, ran.describe());
    const pack = path.join(app, 'pack.pdf');
    assert.equal(pdfInfo(pack).pages, 1 + 1 + 2);
    const outlines = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', pack], { encoding: 'utf8', timeout: 30_000 })).outlines as { title: string; destpageposfrom1: number }[];
    assert.deepEqual(outlines.map((item) => [item.title, item.destpageposfrom1]), [['Cover letter', 1], ['Letter', 2], ['Terms', 3]]);
    assert.match(ran.stdout, /^refused: INVALID_INPUT Invalid append\[0\]\.pdf: the bytes are not a PDF/m, ran.describe());
  });
});
