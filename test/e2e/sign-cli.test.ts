/**
 * PAdES signatures through the installed CLI and a real Chromium, judged by outside oracles:
 * poppler's pdfsig against an NSS database that trusts only the test's own CA, openssl's
 * asn1parse and `ts -verify` for the time-stamp, and `imprint check --einvoice` (XSD,
 * Schematron, PDF/A facts) for a signed Factur-X. The time-stamp authority is `openssl ts`
 * behind a loopback HTTP server.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { darkShare } from '../helpers/pdf-form.js';
import { pdfStructure } from '../helpers/pdf-structure.js';
import { freePort } from '../helpers/free-port.js';
import { assertTrustedWholeSignature, makeSigningPki, pdfsig, signatureCms, timeStampOf, type SigningPki } from '../helpers/signing-pki.js';
import { startTsa, type TsaServer } from '../helpers/tsa-server.js';
import { assertSignedContract, SIGNED_CONTRACT } from '../helpers/visible-signature.js';

const work = tempDir('imprint-sign-');
const dataDir = path.join(work, 'data');
let pki: SigningPki;
let tsa: TsaServer;
before(async () => {
  pki = makeSigningPki(path.join(work, 'pki'));
  tsa = await startTsa(pki);
});
after(async () => {
  await tsa?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const html = path.join(work, 'contract.html');
fs.writeFileSync(html, '<h1>Service contract</h1><p>Signed by ACME Invoicing.</p>');
const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli([...args, '--data-dir', dataDir, '--embedded'], { timeoutMs: 240_000, cwd: work, env });
const generate = (out: string, extra: string[] = [], env: Record<string, string | undefined> = {}) => cli(['generate', '--html', html, '--deterministic', '-o', out, ...extra], env);

test('--sign: a PAdES B-B signature over the whole file that pdfsig trusts; the unsigned PDF is its prefix; one flipped byte is a digest mismatch', async () => {
  const unsigned = path.join(work, 'unsigned.pdf');
  const signed = path.join(work, 'signed.pdf');
  assert.equal((await generate(unsigned)).code, 0);
  const result = await generate(signed, ['--sign', pki.signerP12], { IMPRINT_SIGN_PASSWORD: pki.password });
  assert.equal(result.code, 0, result.describe());
  assertTrustedWholeSignature(pdfsig(signed, pki), signed);
  const before = fs.readFileSync(unsigned);
  const after = fs.readFileSync(signed);
  assert.ok(after.length > before.length && after.subarray(0, before.length).equals(before), 'the signature is an incremental update after the unsigned bytes');

  // PAdES: content-type, message-digest, signing-certificate-v2 signed; no signing-time attribute.
  const parsed = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER'], { input: signatureCms(after), timeout: 30_000 }).toString();
  for (const attribute of ['contentType', 'messageDigest', 'id-smime-aa-signingCertificateV2']) assert.ok(parsed.includes(`object: ${attribute}`), `${attribute} in:\n${parsed}`);
  assert.ok(!parsed.includes('object: signingTime'), 'PAdES forbids the signing-time attribute');

  const flipped = path.join(work, 'flipped.pdf');
  const bytes = Buffer.from(after);
  bytes[Math.floor(before.length / 2)] ^= 0x01;
  fs.writeFileSync(flipped, bytes);
  assert.match(pdfsig(flipped, pki), /Digest Mismatch\./);
  const verified = await cli(['verify', flipped]);
  assert.equal(verified.code, 1, verified.describe());
  assert.match(verified.stdout.toString(), /digest mismatch/);
});

test('imprint verify: signer, time and template of a signed render; exit 0 unchanged, 1 once bytes are appended; --json', async () => {
  const signed = path.join(work, 'invoice-signed.pdf');
  const template = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
  const rendered = await cli(['render', template, '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '-o', signed, '--sign', pki.signerP12, '--sign-password', pki.password]);
  assert.equal(rendered.code, 0, rendered.describe());
  const verified = await cli(['verify', signed]);
  assert.equal(verified.code, 0, verified.describe());
  assert.match(verified.stdout.toString(), /Ada Signer/);
  assert.match(verified.stdout.toString(), /template invoice/);
  const json = await cli(['verify', signed, '--json']);
  assert.equal(json.code, 0, json.describe());
  const report = JSON.parse(json.stdout.toString());
  assert.equal(report.valid, true);
  assert.equal(report.unchanged, true);
  const [signature] = report.signatures;
  assert.equal(signature.signer.commonName, 'Ada Signer');
  assert.equal(signature.signer.issuer, 'CN=Imprint Test CA, O=Imprint Tests');
  assert.equal(signature.level, 'B-B');
  assert.equal(signature.imprint.template, 'invoice');
  assert.match(signature.imprint.software, /^Imprint \d/);
  assert.ok(Math.abs(Date.parse(signature.claimedTime) - Date.now()) < 10 * 60_000, signature.claimedTime);

  const appended = path.join(work, 'appended.pdf');
  const later = Buffer.from('\n% an update after signing\n');
  fs.writeFileSync(appended, Buffer.concat([fs.readFileSync(signed), later]));
  const changed = await cli(['verify', appended, '--json']);
  assert.equal(changed.code, 1, changed.describe());
  const changedReport = JSON.parse(changed.stdout.toString());
  assert.equal(changedReport.valid, true, 'the signature itself still verifies');
  assert.equal(changedReport.unchanged, false);
  assert.equal(changedReport.signatures[0].bytesAfter, later.length);

  const unsigned = await cli(['verify', path.join(work, 'unsigned.pdf')]);
  assert.equal(unsigned.code, 1, unsigned.describe());
  assert.match(unsigned.stderr, /is not signed/);
});

test('--sign --tsa: PAdES B-T, its token from the loopback openssl authority, verified by openssl ts -verify', async () => {
  const signed = path.join(work, 'timestamped.pdf');
  const asked = tsa.requests;
  const result = await generate(signed, ['--sign', pki.signerP12, '--tsa', tsa.url], { IMPRINT_SIGN_PASSWORD: pki.password });
  assert.equal(result.code, 0, result.describe());
  assert.equal(tsa.requests, asked + 1, 'one token asked of the authority');
  assertTrustedWholeSignature(pdfsig(signed, pki), signed);

  const stamped = timeStampOf(signatureCms(fs.readFileSync(signed)), work);
  assert.ok(stamped, 'an unsigned signature-time-stamp attribute');
  const token = path.join(work, 'token.der');
  fs.writeFileSync(token, stamped.token);
  const digest = createHash('sha256').update(stamped.signatureValue).digest('hex');
  const verified = execFileSync('openssl', ['ts', '-verify', '-token_in', '-in', token, '-digest', digest, '-CAfile', pki.caPem, '-untrusted', pki.tsaPem], { timeout: 30_000 }).toString();
  assert.match(verified, /Verification: OK/);

  const report = JSON.parse((await cli(['verify', signed, '--json'])).stdout.toString());
  assert.equal(report.signatures[0].level, 'B-T');
  assert.equal(report.signatures[0].timestamp.valid, true);
  assert.equal(report.signatures[0].timestamp.authority, 'Imprint Test TSA');
});

test('a signed Factur-X still passes the e-invoice checks and its signature stays valid', async () => {
  const signed = path.join(work, 'facturx-signed.pdf');
  const rendered = await cli(['render', path.join(EXAMPLES, 'invoice', 'Invoice.tsx'), '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '--einvoice', 'factur-x', '-o', signed, '--sign', pki.signerP12, '--tsa', tsa.url], { IMPRINT_SIGN_PASSWORD: pki.password });
  assert.equal(rendered.code, 0, rendered.describe());
  const checked = await cli(['check', '--einvoice', signed]);
  assert.equal(checked.code, 0, checked.describe());
  assertTrustedWholeSignature(pdfsig(signed, pki), signed);
  assert.equal((await cli(['verify', signed])).code, 0);
});

test('a wrong password, a missing file and --tsa without --sign are usage errors before anything renders; an unreachable authority fails with TIMESTAMP_FAILED', async () => {
  const wrong = await generate(path.join(work, 'never.pdf'), ['--sign', pki.signerP12], { IMPRINT_SIGN_PASSWORD: 'not-it' });
  assert.equal(wrong.code, 2, wrong.describe());
  assert.match(wrong.stderr, /wrong password/);
  const missing = await generate(path.join(work, 'never.pdf'), ['--sign', path.join(work, 'nope.p12')]);
  assert.notEqual(missing.code, 0, missing.describe());
  const alone = await generate(path.join(work, 'never.pdf'), ['--tsa', tsa.url]);
  assert.equal(alone.code, 2, alone.describe());
  assert.match(alone.stderr, /--tsa goes with --sign/);
  assert.ok(!fs.existsSync(path.join(work, 'never.pdf')));

  const closed = await freePort();
  const down = await generate(path.join(work, 'no-tsa.pdf'), ['--sign', pki.signerP12, '--tsa', `http://127.0.0.1:${closed}/tsa`], { IMPRINT_SIGN_PASSWORD: pki.password });
  assert.equal(down.code, 1, down.describe());
  assert.match(down.stderr, /TIMESTAMP_FAILED/);
  assert.ok(!fs.existsSync(path.join(work, 'no-tsa.pdf')), 'no unsigned file left behind');
});

/** A tagged contract with bookmarks and a <Signature> box on page 2 at known millimetres (the fixture says where), with its PreviewProps' reason. */
const REASON = 'Approved for ACME';
const renderContract = (out: string, extra: string[] = []) => cli(['render', SIGNED_CONTRACT, '--deterministic', '-o', out, ...extra], { IMPRINT_SIGN_PASSWORD: pki.password });

/** The contract unsigned and signed, rendered once for the tests that read them. */
let contract: Promise<{ unsigned: Buffer; signed: Buffer; signedFile: string }> | undefined;
function signedContract() {
  contract ??= (async () => {
    const unsignedFile = path.join(work, 'contract-unsigned.pdf');
    const signedFile = path.join(work, 'contract-signed.pdf');
    const unsigned = await renderContract(unsignedFile);
    assert.equal(unsigned.code, 0, unsigned.describe());
    const signed = await renderContract(signedFile, ['--sign', pki.signerP12]);
    assert.equal(signed.code, 0, signed.describe());
    return { unsigned: fs.readFileSync(unsignedFile), signed: fs.readFileSync(signedFile), signedFile };
  })();
  return contract;
}

test('<Signature>: the signature fills the box where the page drew it, showing signer, date and reason; pdfsig trusts it', async () => {
  const { unsigned, signed, signedFile } = await signedContract();
  const field = assertSignedContract(signedFile, pki, { reason: REASON });
  // The text is the widget's appearance: inside the box pdftoppm draws it only with the annotations, and nothing before signing.
  assert.ok(darkShare(signed, 2, field.rect) > 0.01, 'pdftoppm shows the signature in the box');
  assert.equal(darkShare(signed, 2, field.rect, { hideAnnotations: true }), 0, 'the page itself leaves the box empty');
  assert.equal(darkShare(unsigned, 2, field.rect), 0, 'unsigned, the box is an empty field');
});

test('a tagged render with bookmarks keeps its outline and structure tree once signed: the signature is an incremental update', async () => {
  const { unsigned, signed } = await signedContract();
  assert.ok(signed.subarray(0, unsigned.length).equals(unsigned), 'the unsigned bytes are a prefix of the signed file');
  const before = pdfStructure(unsigned);
  const after = pdfStructure(signed);
  assert.ok(before.outlineEntries >= 3, `bookmarks for the headings (${before.outlineEntries})`);
  assert.deepEqual(after.outline, before.outline);
  assert.ok(before.elements > 0);
  assert.equal(after.elements, before.elements, 'the structure tree keeps every element');
  assert.match(execFileSync('pdfinfo', [path.join(work, 'contract-signed.pdf')]).toString(), /Tagged:\s+yes/);
});

test('render --encrypt --sign: a visible signature in an AES-256 file, valid with the user or the owner password', async () => {
  const file = path.join(work, 'contract-encrypted.pdf');
  const result = await renderContract(file, ['--encrypt', '--user-password', 'u', '--owner-password', 'o', '--sign', pki.signerP12]);
  assert.equal(result.code, 0, result.describe());
  // The appearance and the reason were encrypted with the file's key: a reader with the password sees them.
  assertSignedContract(file, pki, { reason: REASON, password: 'u' });
  assertTrustedWholeSignature(pdfsig(file, pki, ['-opw', 'o']), file);
  assert.match(execFileSync('qpdf', ['--password=o', '--show-encryption', file]).toString(), /^R = 6$/m);
  assert.match(execFileSync('qpdf', ['--password=u', '--check', file]).toString(), /No syntax or stream encoding errors/);
});
