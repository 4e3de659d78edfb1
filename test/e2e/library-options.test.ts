/**
 * The library takes the engine's document options (issue 37): its option types are the
 * engine's, so `pdfa` and `einvoice`, which the CLI's --pdfa and --einvoice have had, reach
 * `createImprint()` too, typed and applied. A Node app of the user's imports `imprint` by its
 * name: the installed package under test (library-app-kit.ts). Its PDFs are checked by content: poppler's pdfinfo and pdfdetach.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { makeLibraryApp, runLibraryApp, typecheckLibraryApp } from './library-app-kit.js';
import { pdfText, run } from './package-kit.js';

const COMMAND_MS = 180_000;

/** The app's calls: the init template as a Factur-X invoice, a published one as ZUGFeRD BASIC, raw HTML as PDF/A-2b. */
const APP_TS = `import fs from 'node:fs';
import { createImprint, type DocumentOptions, type GenerateOptions } from 'imprint';

const props = JSON.parse(fs.readFileSync('templates/Invoice.props.json', 'utf8')) as Record<string, unknown>;
const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });
try {
  const facturX: DocumentOptions = { einvoice: { format: 'factur-x' } };
  fs.writeFileSync('factur-x.pdf', await imprint.render('templates/Invoice.tsx', props, facturX));
  const published = await imprint.publish('templates/Invoice.tsx', { id: 'invoice' });
  fs.writeFileSync('basic.pdf', await imprint.render(published.id, props, { einvoice: { format: 'zugferd', profile: 'basic' } }));
  fs.writeFileSync('archive.pdf', await imprint.generate({ html: '<h1>Archived by the library</h1>' }, { pdfa: '2b' }));
  // @ts-expect-error an e-invoice comes from a template's mapping: generate takes pdfa only
  const refused: GenerateOptions = { einvoice: { format: 'factur-x' } };
  console.log(Object.keys(refused));
} finally {
  await imprint.close();
}
`;

async function attachedXml(pdf: string, cwd: string): Promise<string> {
  const list = await run('pdfdetach', ['-list', pdf], { cwd, env: process.env, timeoutMs: 30_000 });
  assert.match(list.stdout, /^1: factur-x\.xml$/m, list.describe());
  const xml = path.join(cwd, `${pdf}.xml`);
  const saved = await run('pdfdetach', ['-save', '1', '-o', xml, pdf], { cwd, env: process.env, timeoutMs: 30_000 });
  assert.equal(saved.code, 0, saved.describe());
  return fs.readFileSync(xml, 'utf8');
}

async function pdfaPart(pdf: string, cwd: string): Promise<string | undefined> {
  const meta = await run('pdfinfo', ['-meta', pdf], { cwd, env: process.env, timeoutMs: 30_000 });
  assert.equal(meta.code, 0, meta.describe());
  return /<pdfaid:part>(\d)<\/pdfaid:part>/.exec(meta.stdout)?.[1];
}

describe('a library user passes pdfa and einvoice', () => {
  const cli = cliWithDataDir();
  const app = path.join(tempDir('imprint-lib-options-'), 'app');

  before(async () => {
    const init = await cli.run(['init', app], { timeoutMs: COMMAND_MS });
    assert.equal(init.code, 0, init.describe());
    makeLibraryApp(app, 'library-app', { 'app.ts': APP_TS });
  });

  test('the options type-check under tsc --strict against the installed package\'s types', { timeout: COMMAND_MS }, async () => {
    const checked = await typecheckLibraryApp(app, ['app.ts'], COMMAND_MS);
    assert.equal(checked.code, 0, checked.describe());
  });

  test('each PDF is what the option asks for: Factur-X EN 16931 and BASIC XML attached to a PDF/A-3b, a PDF/A-2b', { timeout: COMMAND_MS }, async () => {
    const ran = await runLibraryApp(app, 'app', { IMPRINT_DATA_DIR: cli.dataDir }, COMMAND_MS);
    assert.equal(ran.code, 0, ran.describe());

    const { number } = JSON.parse(fs.readFileSync(path.join(app, 'templates', 'Invoice.props.json'), 'utf8')) as { number: string };
    const text = await pdfText(path.join(app, 'factur-x.pdf'));
    assert.ok(text.stdout.includes(number), text.describe());
    assert.equal(await pdfaPart('factur-x.pdf', app), '3');
    const facturX = await attachedXml('factur-x.pdf', app);
    assert.match(facturX, /<rsm:CrossIndustryInvoice\b/);
    assert.ok(facturX.includes(`<ram:ID>${number}</ram:ID>`), facturX);
    assert.match(facturX, /urn:cen\.eu:en16931:2017<\/ram:ID>/, 'the profile defaults to EN 16931, as the CLI\'s');

    assert.equal(await pdfaPart('basic.pdf', app), '3');
    assert.match(await attachedXml('basic.pdf', app), /urn:factur-x\.eu:1p0:basic<\/ram:ID>/);

    assert.match((await pdfText(path.join(app, 'archive.pdf'))).stdout, /Archived by the library/);
    assert.equal(await pdfaPart('archive.pdf', app), '2');
  });
});
