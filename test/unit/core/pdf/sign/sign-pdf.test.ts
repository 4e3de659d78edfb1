/**
 * The signature step on PDFs of every shape the pipeline hands it, judged by poppler's pdfsig
 * against an NSS database that trusts only the test CA, and by qpdf: a classic cross-reference
 * table, a cross-reference stream (pdf-lib's saves), an AES-256 encrypted file (made with
 * @cantoo/pdf-lib's encrypt(), as the encryption step does), an EC key, and a second signature
 * on a signed file. Each time the input is a prefix of the output.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { signDocument } from '../../../../../src/core/pdf/sign/sign-document.js';
import { readPkcs12 } from '../../../../../src/core/pdf/sign/signing-key.js';
import { verifyPdf } from '../../../../../src/core/pdf/sign/verify-pdf.js';
import { makeSigningPki, pdfsig } from '../../../../helpers/signing-pki.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-sign-unit-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));
const pki = makeSigningPki(path.join(work, 'rsa'));
const key = readPkcs12(fs.readFileSync(pki.signerP12), pki.password, 'signer.p12');

async function samplePdf(options: { objectStreams: boolean; encrypt?: boolean }): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  page.drawText('A signed page', { x: 50, y: 700, font: await doc.embedFont(StandardFonts.Helvetica) });
  doc.setTitle('Signed sample');
  if (options.encrypt) doc.encrypt({ userPassword: 'user-pw', ownerPassword: 'owner-pw', permissions: { printing: 'highResolution', modifying: false } });
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams }));
}

function assertSigned(file: string, report: string): void {
  for (const line of ['Signature is Valid.', 'Total document signed', 'Certificate is Trusted.', 'ETSI.CAdES.detached']) assert.ok(report.includes(line), `${file}: no "${line}" in\n${report}`);
}

for (const shape of [
  { name: 'a classic cross-reference table', objectStreams: false },
  { name: 'a cross-reference stream', objectStreams: true },
  { name: 'an AES-256 encrypted file', objectStreams: true, encrypt: true },
]) {
  test(`signs ${shape.name}: pdfsig trusts it, qpdf finds no error, the input is a prefix`, async () => {
    const input = await samplePdf(shape);
    const signed = await signDocument(Buffer.from(input), key, {}, { template: 'contract', version: 2 });
    const file = path.join(work, `${shape.name.replace(/\W+/g, '-')}.pdf`);
    fs.writeFileSync(file, signed);
    assert.ok(signed.subarray(0, input.length).equals(input));
    assertSigned(file, pdfsig(file, pki, shape.encrypt ? ['-upw', 'user-pw'] : []));
    const check = execFileSync('qpdf', ['--check', ...(shape.encrypt ? ['--password=user-pw'] : []), file], { timeout: 30_000 }).toString();
    assert.match(check, /No syntax or stream encoding errors/);
    if (shape.encrypt) {
      const encryption = execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', file], { timeout: 30_000 }).toString();
      assert.match(encryption, /R = 6/);
      assert.match(execFileSync('pdftotext', ['-upw', 'user-pw', file, '-'], { timeout: 30_000 }).toString(), /A signed page/);
    }
    const report = await verifyPdf(signed, file);
    assert.equal(report.valid && report.unchanged, true, JSON.stringify(report));
    assert.deepEqual(report.signatures[0]!.imprint, { software: report.signatures[0]!.imprint!.software, template: 'contract', version: 2 });
  });
}

test('an EC (P-256) key signs too', async () => {
  const ec = makeSigningPki(path.join(work, 'ec'), { keyType: 'ec' });
  const ecKey = readPkcs12(fs.readFileSync(ec.signerP12), ec.password, 'ec.p12');
  assert.equal(ecKey.privateKey.asymmetricKeyType, 'ec');
  const file = path.join(work, 'ec.pdf');
  fs.writeFileSync(file, await signDocument(await samplePdf({ objectStreams: false }), ecKey, {}));
  assertSigned(file, pdfsig(file, ec));
});

test('a second signature over a signed file: both verify, only the last covers the whole file', async () => {
  const once = await signDocument(await samplePdf({ objectStreams: false }), key, {});
  const twice = await signDocument(Buffer.from(once), key, {});
  const file = path.join(work, 'twice.pdf');
  fs.writeFileSync(file, twice);
  const report = pdfsig(file, pki);
  assert.match(report, /Signature #2:/);
  assert.equal(report.match(/Signature is Valid\./g)?.length, 2, report);
  assert.match(report, /Signature Field Name: Signature2/);
  const verified = await verifyPdf(twice, file);
  assert.deepEqual(verified.signatures.map((s) => s.coversWholeFile), [false, true]);
  assert.equal(verified.valid && verified.unchanged, true);
});

test('a wrong password and a file that is not PKCS#12 are usage errors that say so', () => {
  assert.throws(() => readPkcs12(fs.readFileSync(pki.signerP12), 'wrong', 'signer.p12'), (error: Error & { code?: string }) => error.code === 'USAGE' && /wrong password/.test(error.message));
  assert.throws(() => readPkcs12(Buffer.from('not a p12'), '', 'x.p12'), (error: Error & { code?: string }) => error.code === 'USAGE' && /x\.p12/.test(error.message) && !/\.\./.test(error.message));
  // The message names the flag of the command that opened the file (team signing-key's is --p12-password).
  assert.throws(() => readPkcs12(fs.readFileSync(pki.signerP12), 'wrong', 'signer.p12', '--p12-password or IMPRINT_SIGN_PASSWORD'), (error: Error) => /wrong password \(--p12-password or IMPRINT_SIGN_PASSWORD\)/.test(error.message));
});
