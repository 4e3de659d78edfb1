/**
 * Stamps and encryption through the real CLI (the installed package) and a real Chromium, read
 * back with qpdf, pdfinfo, pdftotext and pdftoppm: a text stamp is text on exactly the pages
 * asked, drawn as an artifact, the tags unchanged; an SVG stamp shows where it was put; a
 * template's own stamp from its props, which the request's replaces; encryption is AES-256
 * R6 with each permission as asked, opens with the user password (still tagged) and not
 * without; passwords come from the environment; what cannot go together is a usage error.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { artifactMarks, pdfStructure } from '../helpers/pdf-structure.js';

const REPORT = path.join(EXAMPLES, 'report', 'Report.tsx');
const REPORT_PROPS = path.join(EXAMPLES, 'report', 'props.json');
const work = tempDir('imprint-stamp-encrypt-');
const dataDir = path.join(work, 'data');
after(() => fs.rmSync(work, { recursive: true, force: true }));
const cli = (args: string[], env?: Record<string, string | undefined>) => runCli([...args, '--data-dir', dataDir], { timeoutMs: 180_000, cwd: work, env });

const USER = 'user-pw-5163';
const OWNER = 'owner-pw-7702';

const pageText = (pdf: string, page: number, password?: string) =>
  execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-f', String(page), '-l', String(page), pdf, '-'], { timeout: 30_000 }).toString();
const pages = (pdf: string, password?: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [...(password ? ['-upw', password] : []), pdf]).toString())?.[1]);

/** The report, tagged, the same bytes each time (--deterministic): the yardstick every stamped copy is compared with. */
let base: string | undefined;
async function baseReport(): Promise<string> {
  if (base) return base;
  const file = path.join(work, 'base.pdf');
  const rendered = await cli(['render', REPORT, '--props', REPORT_PROPS, '--tagged', '--deterministic', '-o', file]);
  assert.equal(rendered.code, 0, rendered.describe());
  base = file;
  return file;
}

test('--stamp DRAFT --stamp-pages 1,3-: DRAFT is text on pages 1, 3 and 4 only, drawn as artifacts; the structure tree and outline are unchanged', { timeout: 300_000 }, async () => {
  const before = await baseReport();
  const stamped = path.join(work, 'stamped.pdf');
  const rendered = await cli(['render', REPORT, '--props', REPORT_PROPS, '--tagged', '--deterministic', '--stamp', 'DRAFT', '--stamp-pages', '1,3-', '-o', stamped]);
  assert.equal(rendered.code, 0, rendered.describe());
  assert.equal(pages(stamped), 4);
  assert.deepEqual([1, 2, 3, 4].map((page) => /\bDRAFT\b/.test(pageText(stamped, page))), [true, false, true, true]);
  assert.equal(/\bDRAFT\b/.test(pageText(before, 1)), false, 'the unstamped report says DRAFT nowhere');
  assert.equal(artifactMarks(stamped) - artifactMarks(before), 3, 'one /Artifact BMC per stamped page');
  const was = pdfStructure(before);
  const is = pdfStructure(stamped);
  assert.ok(was.elements > 50, `the report is tagged (${was.elements} structure elements)`);
  // Compared as text: a diff of two trees of thousands of elements would take the test's time.
  assert.ok(JSON.stringify(is.structTree) === JSON.stringify(was.structTree), 'the structure tree changed');
  assert.ok(JSON.stringify(is.outline) === JSON.stringify(was.outline), 'the outline changed');
  assert.match(execFileSync('pdfinfo', [stamped]).toString(), /^Tagged:\s+yes$/m);
});

test('--stamp file.svg --stamp-position top-right --stamp-pages first: the SVG is drawn in the top-right corner of page 1 alone', { timeout: 180_000 }, async () => {
  const svg = path.join(work, 'mark.svg');
  fs.writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#ff0000"/></svg>');
  const out = path.join(work, 'svg.pdf');
  const rendered = await cli(['render', REPORT, '--props', REPORT_PROPS, '--stamp', svg, '--stamp-position', 'top-right', '--stamp-pages', 'first', '--stamp-opacity', '1', '-o', out]);
  assert.equal(rendered.code, 0, rendered.describe());
  // 10 pixels per inch: A4 is 83 x 117; the stamp (120 x 60 pt, 36 pt from the edges) covers x 62-78, y 5-13.
  const red = (page: number, x: number, y: number) => {
    const ppm = execFileSync('pdftoppm', ['-r', '10', '-f', String(page), '-l', String(page), out], { timeout: 30_000 });
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
    const at = header[0].length + (y * Number(header[1]) + x) * 3;
    return ppm[at] > 200 && ppm[at + 1] < 60 && ppm[at + 2] < 60;
  };
  assert.ok(red(1, 70, 9), 'page 1 is red where the stamp is');
  assert.ok(!red(1, 10, 9), 'and not at its top left');
  assert.ok(!red(2, 70, 9), 'page 2 has no stamp');
});

test("a template's stamp static comes from its props; --stamp replaces it", { timeout: 180_000 }, async () => {
  const template = path.join(work, 'Statement.tsx');
  fs.writeFileSync(
    template,
    [
      'export default function Statement(props: { copy: boolean }) {',
      '  return <main><h1>Statement</h1><p>Balance due</p></main>;',
      '}',
      "Statement.stamp = (props: { copy: boolean }) => (props.copy ? { text: 'COPY', position: 'top-right' } : undefined);",
      'Statement.PreviewProps = { copy: false };',
    ].join('\n'),
  );
  const render = async (name: string, props: object, extra: string[] = []) => {
    const file = path.join(work, `${name}.pdf`);
    fs.writeFileSync(path.join(work, `${name}.json`), JSON.stringify(props));
    const rendered = await cli(['render', template, '--props', path.join(work, `${name}.json`), ...extra, '-o', file]);
    assert.equal(rendered.code, 0, rendered.describe());
    return pageText(file, 1);
  };
  assert.match(await render('copy', { copy: true }), /\bCOPY\b/);
  assert.doesNotMatch(await render('original', { copy: false }), /\bCOPY\b/);
  const replaced = await render('replaced', { copy: true }, ['--stamp', 'VOID']);
  assert.match(replaced, /\bVOID\b/);
  assert.doesNotMatch(replaced, /\bCOPY\b/);
});

test('--encrypt with the passwords from the environment: R 6, each permission as asked, opens with the user password still tagged, not without', { timeout: 180_000 }, async () => {
  await baseReport();
  const out = path.join(work, 'encrypted.pdf');
  const rendered = await cli(
    ['render', REPORT, '--props', REPORT_PROPS, '--tagged', '--encrypt', '--permissions', 'print=low,modify=forms,copy=no,annotate=yes', '-o', out],
    { IMPRINT_USER_PASSWORD: USER, IMPRINT_OWNER_PASSWORD: OWNER },
  );
  assert.equal(rendered.code, 0, rendered.describe());
  assert.ok(!rendered.stderr.includes(USER) && !rendered.stderr.includes(OWNER), 'no password in the output');
  const shown = execFileSync('qpdf', ['--show-encryption', `--password=${OWNER}`, out]).toString();
  assert.match(shown, /^R = 6$/m);
  assert.match(shown, /^Supplied password is owner password$/m);
  for (const line of [
    'print low resolution: allowed',
    'print high resolution: not allowed',
    'modify forms: allowed',
    'modify other: not allowed',
    'modify document assembly: not allowed',
    'extract for any purpose: not allowed',
    'extract for accessibility: allowed',
    'modify annotations: allowed',
    'file encryption method: AESv3',
  ]) {
    assert.ok(shown.split('\n').includes(line), `${line}\n${shown}`);
  }
  assert.match(execFileSync('qpdf', ['--show-encryption', `--password=${USER}`, out]).toString(), /^Supplied password is user password$/m);
  const info = execFileSync('pdfinfo', ['-upw', USER, out]).toString();
  assert.match(info, /^Tagged:\s+yes$/m);
  assert.match(info, /^Encrypted:\s+yes .*AES-256/m);
  assert.match(pageText(out, 1, USER), /Quarterly Shipment Report/);
  const locked = spawnSync('pdfinfo', [out], { timeout: 30_000 });
  assert.notEqual(locked.status, 0);
  assert.match(locked.stderr.toString(), /Incorrect password/);
  // Every string survives (pdf-lib alone left them unencrypted, so readers decrypted them to
  // nothing): the Info fields, and the whole decrypted structure tree is the unencrypted report's.
  assert.match(info, /^Title:\s+Quarterly Shipment Report$/m);
  assert.match(info, /^Creator:\s+Imprint /m);
  assert.ok(JSON.stringify(pdfStructure(out, OWNER).structTree) === JSON.stringify(pdfStructure(base!).structTree), 'the decrypted structure tree differs');
});

test('usage errors: encrypt with --pdfa or --einvoice, a password without --encrypt, --encrypt without a password, a stamp past the last page', { timeout: 120_000 }, async () => {
  const refused = async (args: string[], message: RegExp, code = 2) => {
    const result = await cli(['render', REPORT, '--props', REPORT_PROPS, '-o', path.join(work, 'never.pdf'), ...args]);
    assert.equal(result.code, code, result.describe());
    assert.match(result.stderr, message);
  };
  await refused(['--encrypt', '--user-password', USER, '--pdfa', '2b'], /PDF\/A-2b cannot be encrypted: PDF\/A forbids encryption/);
  await refused(['--encrypt', '--user-password', USER, '--einvoice', 'factur-x'], /e-invoice \(a PDF\/A-3b\) cannot be encrypted/);
  await refused(['--owner-password', OWNER], /--owner-password goes with --encrypt/);
  await refused(['--encrypt'], /--encrypt needs a password: --user-password \(or IMPRINT_USER_PASSWORD\)/);
  await refused(['--encrypt', '--user-password', 'same', '--owner-password', 'same'], /the user and owner passwords are the same/);
  await refused(['--encrypt', '--owner-password', OWNER, '--permissions', 'print=maybe'], /Invalid permission print="maybe": use print=none\|low\|high/);
  await refused(['--stamp-pages', 'first'], /--stamp-pages places a stamp: add --stamp/);
  await refused(['--stamp', 'DRAFT', '--stamp-position', 'middle'], /Invalid stamp.position "middle": use one of center, top-left/);
  await refused(['--stamp', 'DRAFT', '--stamp-pages', '9'], /name page 9, but the document has 4 pages/, 1);
  assert.equal(fs.existsSync(path.join(work, 'never.pdf')), false);
});

test('--help teaches the stamp and encryption flags, the permission values and the password variables', { timeout: 60_000 }, async () => {
  for (const command of ['render', 'generate']) {
    const help = await cli([command, '--help']);
    assert.equal(help.code, 0, help.describe());
    const text = help.stdout.toString().replace(/\s+/g, ' ');
    for (const expected of ['--stamp <text|file>', '--stamp-pages', '--stamp-position', '--stamp-opacity', '--stamp-rotate', '--encrypt', 'IMPRINT_USER_PASSWORD', 'IMPRINT_OWNER_PASSWORD', 'print=none|low|high', 'modify=none|forms|assembly|all']) {
      assert.ok(text.includes(expected), `${command} --help names ${expected}`);
    }
  }
});
