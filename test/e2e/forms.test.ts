/**
 * Fillable forms (issue 39): `<Field>`s of imprint/react printed by the installed CLI in a real
 * Chromium, read back with the Debian tools. test/fixtures/forms/OrderForm.tsx draws each box
 * with a border at known millimetres of an A4 page with 20 mm margins, on page 1 and (by the
 * flow: a block kept whole moves there) page 3. qpdf --json lists the fields with their full
 * names, types, pages and rectangles within 1 pt of those boxes; pdftk-java agrees; pdftoppm
 * shows each value inside its box only when it draws the annotations (the value is the field's
 * appearance, not page content), and after --flatten without them (page content, no form).
 * Tagged PDFs keep their structure; the API (imprint serve) and the library take `flatten`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, cliWithDataDir, INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { darkShare, pdftkFields, qpdfForm, type QpdfField, type QpdfForm } from '../helpers/pdf-form.js';
import { pdfInfo, pdfText, withFile } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { createTeamKey } from '../helpers/team-key.js';
import { run } from './package-kit.js';

const COMMAND_MS = 180_000;
const FIXTURE = path.join(INPUTS, 'test', 'fixtures', 'forms', 'OrderForm.tsx');
const BAD = path.join(INPUTS, 'test', 'fixtures', 'forms', 'BadForm.tsx');
const PROPS = { email: 'ada@example.com', notes: 'Leave at the door', express: true, payment: 'invoice', country: 'Germany', delivery: '2026-12-24', signer: 'Ada Lovelace' };

const mm = (value: number) => (value * 72) / 25.4;
/** A box of the fixture: page, left and top from the page's corner (margins included), width, height, in mm. */
const BOXES: Record<string, { page: number; left: number; top: number; width: number; height: number }> = {
  'customer.email': { page: 1, left: 50, top: 40, width: 60, height: 8 },
  express: { page: 1, left: 50, top: 50, width: 5, height: 5 },
  'payment:card': { page: 1, left: 50, top: 60, width: 5, height: 5 },
  'payment:invoice': { page: 1, left: 70, top: 60, width: 5, height: 5 },
  'customer.country': { page: 1, left: 50, top: 70, width: 40, height: 8 },
  'delivery.date': { page: 1, left: 50, top: 80, width: 30, height: 8 },
  notes: { page: 1, left: 50, top: 90, width: 100, height: 25 },
  'signature.name': { page: 3, left: 50, top: 30, width: 80, height: 8 },
};

const cli = cliWithDataDir();
const qpdfCheck = (pdf: Buffer) => withFile(pdf, (file) => execFileSync('qpdf', ['--check', file]));

async function render(args: string[], props: object = PROPS): Promise<Buffer> {
  const result = await cli.run(['render', FIXTURE, '--props', '-', ...args], { stdin: JSON.stringify(props), timeoutMs: COMMAND_MS });
  assert.equal(result.code, 0, result.describe());
  return result.stdout;
}

/** The box a field's widget should cover, in PDF points ([x1, y1, x2, y2], from the bottom left). */
function expectedRect(key: string, pageHeight: number): number[] {
  const box = BOXES[key]!;
  return [mm(box.left), pageHeight - mm(box.top + box.height), mm(box.left + box.width), pageHeight - mm(box.top)];
}

/** qpdf lists a radio group once per button: the key tells them apart by the button's option. */
const keyOf = (field: QpdfField) => (field.isradiobutton ? `${field.fullname}:${field.option}` : field.fullname);

describe('<Field>s as AcroForm fields (imprint render, installed CLI)', { timeout: COMMAND_MS * 2 }, () => {
  let pdf: Buffer;
  let form: QpdfForm;
  let pageHeight: number;

  before(async () => {
    pdf = await render([]);
    form = qpdfForm(pdf);
    pageHeight = pdfInfo(pdf).heightPt;
  });

  test('three pages; qpdf finds a form whose appearances are written, not left to the viewer', () => {
    assert.equal(pdfInfo(pdf).pages, 3);
    assert.equal(form.hasacroform, true);
    assert.equal(form.needappearances, false);
    qpdfCheck(pdf);
  });

  test('qpdf --json: full names (dots as a hierarchy), types and values', () => {
    const byName = new Map(form.fields.map((field) => [field.fullname, field]));
    assert.deepEqual([...new Set(form.fields.map((field) => field.fullname))].sort(), ['customer.country', 'customer.email', 'delivery.date', 'express', 'notes', 'payment', 'signature.name']);
    assert.equal(byName.get('customer.email')!.fieldtype, '/Tx');
    assert.equal(byName.get('customer.email')!.value, 'u:ada@example.com');
    assert.equal(byName.get('customer.email')!.alternativename, 'Customer e-mail');
    assert.equal(byName.get('notes')!.value, 'u:Leave at the door');
    assert.equal(byName.get('delivery.date')!.value, 'u:2026-12-24');
    assert.equal(byName.get('signature.name')!.value, 'u:Ada Lovelace');
    assert.ok(byName.get('express')!.ischeckbox);
    assert.equal(byName.get('express')!.annotation.appearancestate, '/Yes');
    assert.ok(byName.get('customer.country')!.ischoice);
    assert.equal(byName.get('customer.country')!.value, 'u:Germany');
    // One group, a widget per button; the chosen one is on (states index the group's /Opt, as pdf-lib writes them).
    const radios = form.fields.filter((field) => field.fullname === 'payment');
    assert.deepEqual(radios.map((radio) => radio.option).sort(), ['card', 'invoice']);
    const on = radios.filter((radio) => radio.annotation.appearancestate !== '/Off');
    assert.deepEqual(on.map((radio) => radio.option), ['invoice']);
    assert.ok(radios.every((radio) => radio.isradiobutton && radio.value === on[0]!.annotation.appearancestate));
  });

  test('qpdf --json: each widget on the page of its box, its rectangle within 1 pt of the box (pages 1 and 3)', () => {
    assert.equal(form.fields.length, Object.keys(BOXES).length);
    for (const field of form.fields) {
      const key = keyOf(field);
      const box = BOXES[key];
      assert.ok(box, `a field qpdf lists that the fixture has no box for: ${key}`);
      assert.equal(field.pageposfrom1, box.page, `${key}: page`);
      const expected = expectedRect(key, pageHeight);
      field.rect.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) <= 1, `${key}: rect ${JSON.stringify(field.rect)}, the box ${JSON.stringify(expected.map((n) => +n.toFixed(2)))}`));
    }
  });

  test('pdftk dump_data_fields agrees: names, types, values, the label as FieldNameAlt, the flags', () => {
    const fields = new Map(pdftkFields(pdf).map((field) => [field.FieldName![0]!, field]));
    for (const name of ['customer.email', 'customer.country', 'delivery.date', 'express', 'notes', 'payment', 'signature.name']) assert.ok(fields.has(name), `pdftk lacks ${name}`);
    assert.deepEqual(fields.get('customer.email')!.FieldType, ['Text']);
    assert.deepEqual(fields.get('customer.email')!.FieldValue, ['ada@example.com']);
    assert.deepEqual(fields.get('customer.email')!.FieldNameAlt, ['Customer e-mail']);
    // Required (bit 2), read-only (bit 1), multi-line (bit 13).
    assert.equal(Number(fields.get('customer.email')!.FieldFlags![0]) & 2, 2);
    assert.equal(Number(fields.get('delivery.date')!.FieldFlags![0]) & 1, 1);
    assert.equal(Number(fields.get('notes')!.FieldFlags![0]) & 4096, 4096);
    assert.deepEqual(fields.get('express')!.FieldType, ['Button']);
    assert.deepEqual(fields.get('express')!.FieldValue, ['Yes']);
    assert.deepEqual(fields.get('payment')!.FieldValue, ['invoice']);
    assert.deepEqual(fields.get('customer.country')!.FieldType, ['Choice']);
    assert.deepEqual(fields.get('customer.country')!.FieldValue, ['Germany']);
    assert.deepEqual(fields.get('customer.country')!.FieldStateOption, ['France', 'Germany', 'Spain']);
    assert.deepEqual(fields.get('signature.name')!.FieldValue, ['Ada Lovelace']);
  });

  test('pdftoppm: each value shows inside its box, drawn by the field (nothing there with annotations hidden)', () => {
    for (const key of ['customer.email', 'express', 'payment:invoice', 'customer.country', 'delivery.date', 'notes', 'signature.name']) {
      const rect = expectedRect(key, pageHeight);
      const shown = darkShare(pdf, BOXES[key]!.page, rect);
      const hidden = darkShare(pdf, BOXES[key]!.page, rect, { hideAnnotations: true });
      assert.ok(shown > 0.002, `${key}: ${shown} of the box dark: no value drawn`);
      assert.equal(hidden, 0, `${key}: ${hidden} of the box dark without annotations: the value is page content`);
    }
    // The button not chosen stays empty.
    assert.equal(darkShare(pdf, 1, expectedRect('payment:card', pageHeight)), 0);
  });

  test('no link is left of the boxes (they were how the fields were placed)', () => {
    const objects = withFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-']).toString('latin1'));
    assert.doesNotMatch(objects, /field\.imprint\.invalid/);
    assert.doesNotMatch(objects, /\/Subtype \/Link/);
  });
});

describe('--flatten', { timeout: COMMAND_MS * 2 }, () => {
  let pdf: Buffer;

  before(async () => {
    pdf = await render(['--flatten'], { ...PROPS, email: 'flat@example.com' });
  });

  test('no form left: no /AcroForm, no fields for qpdf or pdftk', () => {
    const form = qpdfForm(pdf);
    assert.equal(form.hasacroform, false);
    assert.equal(form.fields.length, 0);
    assert.deepEqual(pdftkFields(pdf), []);
    assert.match(withFile(pdf, (file) => execFileSync('pdfinfo', [file]).toString()), /^Form:\s+none$/m);
    qpdfCheck(pdf);
  });

  test('pdftotext finds the values on their pages; pdftoppm draws them as page content', () => {
    assert.match(pdfText(pdf, 1), /flat@example\.com/);
    assert.match(pdfText(pdf, 1), /Leave at the door/);
    assert.match(pdfText(pdf, 1), /Germany/);
    assert.match(pdfText(pdf, 3), /Ada Lovelace/);
    const height = pdfInfo(pdf).heightPt;
    for (const key of ['customer.email', 'express', 'payment:invoice', 'signature.name']) {
      assert.ok(darkShare(pdf, BOXES[key]!.page, expectedRect(key, height), { hideAnnotations: true }) > 0.01, `${key}: not drawn into the page`);
    }
  });
});

describe('--tagged: the structure keeps the fields', { timeout: COMMAND_MS * 2 }, () => {
  test('fillable: each widget is the object of a Form element; still Tagged: yes', async () => {
    const pdf = await render(['--tagged']);
    const structure = withFile(pdf, (file) => execFileSync('pdfinfo', ['-struct', file]).toString());
    assert.match(withFile(pdf, (file) => execFileSync('pdfinfo', [file]).toString()), /^Tagged:\s+yes$/m);
    assert.equal(structure.match(/^\s*Form\n\s*Object \d+ \d+/gm)?.length, Object.keys(BOXES).length, structure);
    assert.doesNotMatch(structure, /Link/);
    assert.equal(qpdfForm(pdf).fields.length, Object.keys(BOXES).length);
  });

  test('flattened: the values are text of the structure (pdfinfo -struct-text)', async () => {
    const pdf = await render(['--tagged', '--flatten']);
    const text = withFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file]).toString());
    for (const value of ['ada@example.com', 'Germany', '2026-12-24', 'Leave at the door', 'Ada Lovelace']) assert.match(text, new RegExp(`"${value.replace('.', '\\.')}"`), text);
    qpdfCheck(pdf);
  });
});

describe('forms a PDF cannot hold: RENDER_FAILED naming the field', { timeout: COMMAND_MS * 2 }, () => {
  const cases: Array<[string, RegExp]> = [
    ['clash', /Two <Field>s are named "email" \(text and checkbox\)/],
    ['branch', /The <Field>s "customer" and "customer\.email" clash/],
    ['hidden', /The <Field name="secret"> is not shown on any page/],
    ['select', /The select <Field name="country"> has value "Spain", which is not one of its options \(France\)/],
  ];
  for (const [fault, message] of cases) {
    test(fault, async () => {
      const result = await cli.run(['render', BAD, '--props', '-', '-o', path.join(tempDir(), 'never.pdf')], { stdin: JSON.stringify({ fault }), timeoutMs: COMMAND_MS });
      assert.equal(result.code, 1, result.describe());
      assert.match(result.stderr, message, result.describe());
      assert.match(result.stderr, /RENDER_FAILED/);
    });
  }
});

describe('the API (imprint serve) and the library take flatten', { timeout: COMMAND_MS * 3 }, () => {
  const operator = cliWithDataDir();
  let serve: ServeProcess | undefined;
  let key = '';

  before(async () => {
    key = await createTeamKey(operator);
    serve = await startServeProcess({ dataDir: operator.dataDir });
    const env = { IMPRINT_CONFIG_DIR: tempDir('imprint-config-') };
    const published = await runCli(['publish', FIXTURE, '--id', 'order-form', '--api-url', serve.url, '--api-key', key], { env, timeoutMs: COMMAND_MS });
    assert.equal(published.code, 0, published.describe());
  });

  after(async () => {
    assert.equal(await serve?.stop(), 0, serve?.output());
  });

  const post = async (body: object) => {
    const response = await fetch(new URL('/api/documents/order-form', serve!.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_MS),
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  test('POST /api/documents/{id}: the fields; with flatten: true, the values as text and no form', async () => {
    const filled = await post({ props: PROPS });
    assert.equal(filled.status, 200, filled.bytes.toString());
    assert.equal(qpdfForm(filled.bytes).fields.length, Object.keys(BOXES).length);
    const flat = await post({ props: PROPS, flatten: true });
    assert.equal(flat.status, 200, flat.bytes.toString());
    assert.equal(qpdfForm(flat.bytes).hasacroform, false);
    assert.match(pdfText(flat.bytes, 3), /Ada Lovelace/);
  });

  test('flatten: "yes" is refused with 400 USAGE', async () => {
    const refused = await post({ props: PROPS, flatten: 'yes' });
    assert.equal(refused.status, 400, refused.bytes.toString());
  });

  test('the library: render(file, props, { flatten: true })', async () => {
    const project = tempDir('imprint-forms-lib-');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'forms-app', private: true, type: 'module' }));
    fs.mkdirSync(path.join(project, 'node_modules'));
    fs.symlinkSync(path.resolve(path.dirname(BIN), '..'), path.join(project, 'node_modules', 'imprint'), 'dir');
    const script = [
      `import fs from 'node:fs';`,
      `import { createImprint } from 'imprint';`,
      `const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });`,
      `try {`,
      `  fs.writeFileSync('form.pdf', await imprint.render(${JSON.stringify(FIXTURE)}, ${JSON.stringify(PROPS)}));`,
      `  fs.writeFileSync('flat.pdf', await imprint.render(${JSON.stringify(FIXTURE)}, ${JSON.stringify(PROPS)}, { flatten: true }));`,
      `} finally {`,
      `  await imprint.close();`,
      `}`,
    ].join('\n');
    fs.writeFileSync(path.join(project, 'app.mjs'), script);
    const env = { ...process.env, IMPRINT_DATA_DIR: tempDir('imprint-forms-lib-data-'), IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined };
    const result = await run(process.execPath, ['app.mjs'], { cwd: project, env, timeoutMs: COMMAND_MS });
    assert.equal(result.code, 0, result.describe());
    assert.equal(qpdfForm(fs.readFileSync(path.join(project, 'form.pdf'))).fields.length, Object.keys(BOXES).length);
    const flat = fs.readFileSync(path.join(project, 'flat.pdf'));
    assert.equal(qpdfForm(flat).hasacroform, false);
    assert.match(pdfText(flat, 1), /ada@example\.com/);
  });
});
