/**
 * The library finishes documents as the CLI does (issue 39): `<Field>`s, `flatten`, `stamp` and
 * `encrypt` through `createImprint()` of the installed package, in a Node app of the user's
 * that imports `imprint` by its name (library-app-kit.ts). One app, one instance, one browser
 * renders the forms fixture (test/fixtures/forms, as forms.test.ts) fillable, flattened,
 * stamped and encrypted, and generates a stamped, encrypted page; a refused combination
 * rejects with the CLI's code. The PDFs are judged by the CLI tests' oracles: qpdf (--json,
 * --show-encryption), pdfinfo and pdftotext.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { INPUTS, tempDir } from '../helpers/cli.js';
import { qpdfForm, type QpdfField } from '../helpers/pdf-form.js';
import { pdfText } from '../helpers/pdf.js';
import { ATTEMPT_TS, makeLibraryApp, outcomesOf, runLibraryApp, typecheckLibraryApp } from './library-app-kit.js';

const COMMAND_MS = 300_000;
const FORM = path.join(INPUTS, 'test', 'fixtures', 'forms', 'OrderForm.tsx');
/** Not the fixture's PreviewProps: each value in a PDF came from the app's props. */
const PROPS = { email: 'grace@example.org', notes: 'Ring twice', express: false, payment: 'card', country: 'Spain', delivery: '2027-01-15', signer: 'Grace Hopper' };
const USER = 'lib-user-pw-3391';
const OWNER = 'lib-owner-pw-8024';

const APP_TS = `import fs from 'node:fs';
import { createImprint, ImprintError, type GenerateOptions, type RenderOptions } from 'imprint';
${ATTEMPT_TS}
const { FORM, FORM_PROPS, USER_PASSWORD, OWNER_PASSWORD } = process.env as Record<string, string>;
const props = JSON.parse(FORM_PROPS) as Record<string, unknown>;
const encrypt: RenderOptions['encrypt'] = { userPassword: USER_PASSWORD, ownerPassword: OWNER_PASSWORD, permissions: { print: 'low', copy: false } };
const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });
try {
  await attempt('form', () => imprint.render(FORM, props, {}));
  await attempt('flat', () => imprint.render(FORM, props, { flatten: true }));
  await attempt('stamped', () => imprint.render(FORM, props, { stamp: { text: 'COPY', pages: 'first' } }));
  await attempt('encrypted', () => imprint.render(FORM, props, { encrypt }));
  const draft: GenerateOptions = { stamp: 'DRAFT', encrypt };
  await attempt('generated', () => imprint.generate({ html: '<title>Minutes</title><h1>Draft minutes</h1>' }, draft));
  await attempt('pdfa-encrypted', () => imprint.render(FORM, props, { encrypt, pdfa: '2b' }));
  // @ts-expect-error a stamp's position is one of nine places
  const misplaced: RenderOptions = { stamp: { text: 'COPY', position: 'middle' } };
  await attempt('misplaced', () => imprint.render(FORM, props, misplaced));
} finally {
  await imprint.close();
}
console.log(JSON.stringify(outcomes));
`;

const work = tempDir('imprint-lib-finishing-');
const app = path.join(work, 'app');
const pdf = (name: string) => path.join(app, `${name}.pdf`);
after(() => fs.rmSync(work, { recursive: true, force: true }));

before(() => makeLibraryApp(app, 'finishing-app', { 'app.ts': APP_TS }));

const pdfinfo = (file: string, password?: string) => execFileSync('pdfinfo', [...(password ? ['-upw', password] : []), file], { timeout: 30_000 }).toString();
const showEncryption = (file: string, password: string) => execFileSync('qpdf', ['--show-encryption', `--password=${password}`, file], { timeout: 30_000 }).toString();
const formOf = (name: string, password?: string) => qpdfForm(fs.readFileSync(pdf(name)), password);
const byName = (fields: QpdfField[]) => new Map(fields.map((field) => [field.fullname, field]));

/** An AES-256 file: R 6, the owner password lifts the permissions, the user password opens it tagged, nothing else opens it. */
function assertEncrypted(file: string): string {
  const shown = showEncryption(file, OWNER);
  assert.match(shown, /^R = 6$/m, shown);
  assert.match(shown, /^Supplied password is owner password$/m, shown);
  assert.match(showEncryption(file, USER), /^Supplied password is user password$/m);
  const info = pdfinfo(file, USER);
  assert.match(info, /^Tagged:\s+yes$/m, info);
  assert.match(info, /^Encrypted:\s+yes .*AES-256/m, info);
  const locked = spawnSync('pdfinfo', [file], { timeout: 30_000 });
  assert.notEqual(locked.status, 0, 'opened without a password');
  assert.match(locked.stderr.toString(), /Incorrect password/);
  return shown;
}

test("stamp, encrypt and flatten type-check under tsc --strict against the installed package's types (a stamp's position is checked)", { timeout: COMMAND_MS }, async () => {
  const checked = await typecheckLibraryApp(app, ['app.ts'], COMMAND_MS);
  assert.equal(checked.code, 0, checked.describe());
});

describe('one app renders, flattens, stamps and encrypts through createImprint()', { timeout: COMMAND_MS * 2 }, () => {
  let outcomes: Record<string, string>;

  before(async () => {
    const env = { FORM, FORM_PROPS: JSON.stringify(PROPS), USER_PASSWORD: USER, OWNER_PASSWORD: OWNER, IMPRINT_DATA_DIR: path.join(work, 'data') };
    const ran = await runLibraryApp(app, 'app', env, COMMAND_MS);
    assert.equal(ran.code, 0, ran.describe());
    assert.ok([USER, OWNER].every((password) => !ran.stdout.includes(password) && !ran.stderr.includes(password)), 'no password in the output');
    outcomes = outcomesOf(ran);
  });

  test('render(form, props, {}): qpdf --json lists each field by its full dotted name, with its type and the value from props', () => {
    assert.equal(outcomes.form, 'written', JSON.stringify(outcomes));
    const form = formOf('form');
    assert.equal(form.hasacroform, true);
    const fields = byName(form.fields);
    assert.deepEqual([...fields.keys()].sort(), ['customer.country', 'customer.email', 'delivery.date', 'express', 'notes', 'payment', 'signature.name']);
    const types = Object.fromEntries([...fields].map(([name, field]) => [name, field.fieldtype]));
    assert.deepEqual(types, { 'customer.email': '/Tx', express: '/Btn', payment: '/Btn', 'customer.country': '/Ch', 'delivery.date': '/Tx', notes: '/Tx', 'signature.name': '/Tx' });
    assert.equal(fields.get('customer.email')!.value, `u:${PROPS.email}`);
    assert.equal(fields.get('customer.country')!.value, `u:${PROPS.country}`);
    assert.equal(fields.get('delivery.date')!.value, `u:${PROPS.delivery}`);
    assert.equal(fields.get('notes')!.value, `u:${PROPS.notes}`);
    assert.equal(fields.get('signature.name')!.value, `u:${PROPS.signer}`);
    assert.ok(fields.get('express')!.ischeckbox);
    assert.equal(fields.get('express')!.annotation.appearancestate, '/Off', 'express: false leaves the box unticked');
    const chosen = form.fields.filter((field) => field.isradiobutton && field.annotation.appearancestate !== '/Off');
    assert.deepEqual(chosen.map((radio) => radio.option), [PROPS.payment]);
  });

  test('{ flatten: true }: no form remains; pdftotext finds the values on their pages', () => {
    assert.equal(outcomes.flat, 'written', JSON.stringify(outcomes));
    const form = formOf('flat');
    assert.equal(form.hasacroform, false);
    assert.equal(form.fields.length, 0);
    assert.match(pdfinfo(pdf('flat')), /^Form:\s+none$/m);
    const first = pdfText(pdf('flat'), 1);
    for (const value of [PROPS.email, PROPS.country, PROPS.delivery, PROPS.notes]) assert.ok(first.includes(value), `${value} not on page 1:\n${first}`);
    assert.match(pdfText(pdf('flat'), 3), /Grace Hopper/);
  });

  test("{ stamp: { text: 'COPY', pages: 'first' } }: COPY is text on page 1 only; still tagged, the fields kept", () => {
    assert.equal(outcomes.stamped, 'written', JSON.stringify(outcomes));
    assert.deepEqual([1, 2, 3].map((page) => /\bCOPY\b/.test(pdfText(pdf('stamped'), page))), [true, false, false]);
    assert.doesNotMatch(pdfText(pdf('form'), 1), /\bCOPY\b/, 'the unstamped form says COPY nowhere');
    assert.match(pdfinfo(pdf('stamped')), /^Tagged:\s+yes$/m);
    assert.equal(byName(formOf('stamped').fields).get('customer.email')?.value, `u:${PROPS.email}`);
  });

  test("{ encrypt: { userPassword, ownerPassword, permissions: { print: 'low', copy: false } } }: R 6 and the permissions asked; opens with the user password, tagged, its fields' values readable", () => {
    assert.equal(outcomes.encrypted, 'written', JSON.stringify(outcomes));
    const shown = assertEncrypted(pdf('encrypted'));
    for (const line of [
      'print low resolution: allowed',
      'print high resolution: not allowed',
      'extract for any purpose: not allowed',
      'extract for accessibility: allowed',
      'modify other: not allowed',
      'file encryption method: AESv3',
    ]) {
      assert.ok(shown.split('\n').includes(line), `${line}\n${shown}`);
    }
    assert.equal(byName(formOf('encrypted', USER).fields).get('signature.name')?.value, `u:${PROPS.signer}`);
  });

  test("generate({ html }, { stamp: 'DRAFT', encrypt }): stamped and encrypted", () => {
    assert.equal(outcomes.generated, 'written', JSON.stringify(outcomes));
    assertEncrypted(pdf('generated'));
    const text = pdfText(pdf('generated'), 1, USER);
    assert.match(text, /Draft minutes/);
    assert.match(text, /\bDRAFT\b/);
  });

  test('refused before anything renders, with the CLI\'s code: encrypt with pdfa, a stamp position that is none', () => {
    assert.match(outcomes['pdfa-encrypted']!, /^USAGE: A PDF\/A-2b cannot be encrypted: PDF\/A forbids encryption/, JSON.stringify(outcomes));
    assert.match(outcomes.misplaced!, /^USAGE: Invalid stamp\.position "middle": use one of center, top-left/, JSON.stringify(outcomes));
    assert.ok(!fs.existsSync(pdf('pdfa-encrypted')) && !fs.existsSync(pdf('misplaced')));
  });
});
