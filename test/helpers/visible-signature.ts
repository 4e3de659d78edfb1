/**
 * A signed test/fixtures/sign/SignedContract.tsx judged by outside oracles, whichever face
 * signed it (the CLI's --sign, the service's sign): pdfsig against the test CA's NSS database,
 * one signature field where the fixture's box printed (qpdf --json), the appearance's text on
 * that page (pdftotext) and the signature dictionary's /Reason (qpdf, strings decrypted).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { INPUTS } from './cli.js';
import { qpdfForm, type QpdfField } from './pdf-form.js';
import { pdfInfo, pdfText } from './pdf.js';
import { pdfObjects } from './qpdf.js';
import { assertTrustedWholeSignature, pdfsig, SIGNER_COMMON_NAME, type SigningPki } from './signing-pki.js';

/** A tagged two-page A4 contract with bookmarks and a `<Signature reason={props.reason}>` box on page 2. */
export const SIGNED_CONTRACT = path.join(INPUTS, 'test', 'fixtures', 'sign', 'SignedContract.tsx');

/** Its box: page 2, 20 mm margin + 30 mm padding from the left, 20 mm margin + a 30 mm heading from the top, 80 x 25 mm. */
const BOX = { page: 2, left: 50, top: 50, width: 80, height: 25 };
const mm = (value: number) => (value * 72) / 25.4;

/**
 * The contract in `file` carries one trusted signature over the whole file, in the box: its
 * widget on page 2 within 1 pt of the box, the page showing the signer, the date and `reason`,
 * and `reason` as the signature's /Reason. `password`: an encrypted file's user password.
 * Answers the field, for the caller's own checks.
 */
export function assertSignedContract(file: string, pki: SigningPki, expected: { reason: string; password?: string }): QpdfField {
  const { reason, password } = expected;
  const pdf = fs.readFileSync(file);
  assertTrustedWholeSignature(pdfsig(file, pki, password === undefined ? [] : ['-upw', password]), file);
  const fields = qpdfForm(pdf, password).fields.filter((field) => field.fieldtype === '/Sig');
  assert.equal(fields.length, 1, 'one signature field: the box, not a second invisible one');
  const field = fields[0]!;
  assert.equal(field.fullname, 'Signature');
  assert.equal(field.pageposfrom1, BOX.page, 'the widget is on the page the box printed on');
  const height = pdfInfo(pdf, password).heightPt;
  const rect = [mm(BOX.left), height - mm(BOX.top + BOX.height), mm(BOX.left + BOX.width), height - mm(BOX.top)];
  field.rect.forEach((value, i) => assert.ok(Math.abs(value - rect[i]!) <= 1, `the widget's /Rect ${JSON.stringify(field.rect)} is within 1 pt of the box ${JSON.stringify(rect)}`));
  const text = pdfText(pdf, BOX.page, password);
  for (const line of [`Digitally signed by ${SIGNER_COMMON_NAME}`, `Reason: ${reason}`]) assert.ok(text.includes(line), `page ${BOX.page} shows "${line}":\n${text}`);
  assert.match(text, /Date: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  // qpdf writes a text string as "u:" and its characters.
  const signature = pdfObjects(pdf, password).resolve(field.value) as Record<string, unknown>;
  assert.equal(signature['/Reason'], `u:${reason}`, "the signature's /Reason is the box's reason");
  return field;
}
