/**
 * A private PKI made with openssl for the signature tests: a CA, a signer certificate and its
 * PKCS#12 (key, certificate, CA), a time-stamp authority's certificate (extended key usage
 * timeStamping, critical, as RFC 3161 asks) with its `openssl ts` configuration, and an NSS
 * database that trusts that CA and nothing else, for `pdfsig -nssdir sql:<db>`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface SigningPki {
  dir: string;
  caPem: string;
  signerP12: string;
  password: string;
  /** The NSS database (certutil) trusting only the CA. */
  nssDir: string;
  tsaPem: string;
  tsaConfig: string;
}

/** The signer certificate's common name: what a visible signature shows after "Digitally signed by". */
export const SIGNER_COMMON_NAME = 'Ada Signer';

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });

const EXTENSIONS = `[signer]
basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,nonRepudiation
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
[tsa]
basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=critical,timeStamping
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
`;

function tsaConfig(dir: string): string {
  return `[ tsa ]
default_tsa = tsa_config1
[ tsa_config1 ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/ca.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}

/** `keyType`: the signer's key, RSA (default) or EC P-256. */
export function makeSigningPki(dir: string, options: { keyType?: 'rsa' | 'ec'; password?: string } = {}): SigningPki {
  fs.mkdirSync(dir, { recursive: true });
  const password = options.password ?? 'signer-secret';
  fs.writeFileSync(path.join(dir, 'ext.cnf'), EXTENSIONS);
  run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Imprint Test CA/O=Imprint Tests', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  const signerKey = options.keyType === 'ec' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048'];
  run('openssl', ['req', ...signerKey, '-nodes', '-keyout', 'signer.key', '-out', 'signer.csr', '-subj', `/CN=${SIGNER_COMMON_NAME}/O=ACME Invoicing`], dir);
  run('openssl', ['x509', '-req', '-in', 'signer.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '30', '-extfile', 'ext.cnf', '-extensions', 'signer'], dir);
  run('openssl', ['pkcs12', '-export', '-inkey', 'signer.key', '-in', 'signer.pem', '-certfile', 'ca.pem', '-out', 'signer.p12', '-passout', `pass:${password}`], dir);
  run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Imprint Test TSA/O=Imprint Tests'], dir);
  run('openssl', ['x509', '-req', '-in', 'tsa.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'tsa.pem', '-days', '30', '-extfile', 'ext.cnf', '-extensions', 'tsa'], dir);
  fs.writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  fs.writeFileSync(path.join(dir, 'tsa.cnf'), tsaConfig(dir));
  const nssDir = path.join(dir, 'nss');
  fs.mkdirSync(nssDir);
  run('certutil', ['-N', '-d', `sql:${nssDir}`, '--empty-password'], dir);
  run('certutil', ['-A', '-d', `sql:${nssDir}`, '-n', 'imprint-test-ca', '-t', 'CT,C,C', '-i', 'ca.pem'], dir);
  return { dir, caPem: path.join(dir, 'ca.pem'), signerP12: path.join(dir, 'signer.p12'), password, nssDir, tsaPem: path.join(dir, 'tsa.pem'), tsaConfig: path.join(dir, 'tsa.cnf') };
}

/** poppler's pdfsig against the PKI's NSS database: its report (it exits non-zero for an invalid signature). */
export function pdfsig(pdf: string, pki: SigningPki, extra: string[] = []): string {
  try {
    return run('pdfsig', ['-nssdir', `sql:${pki.nssDir}`, ...extra, pdf], path.dirname(pdf)).toString();
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer };
    return `${failed.stdout?.toString() ?? ''}${failed.stderr?.toString() ?? ''}`;
  }
}

/** pdfsig's report says one PAdES signature, valid, over the whole file, by a certificate the NSS database trusts. */
export function assertTrustedWholeSignature(report: string, file: string): void {
  for (const line of ['Signature is Valid.', 'Total document signed', 'Certificate is Trusted.', 'ETSI.CAdES.detached']) assert.ok(report.includes(line), `pdfsig on ${file} lacks "${line}":\n${report}`);
}

/** The CMS inside a signed PDF's (last) /Contents, cut out by its /ByteRange: the gap between the two ranges. */
export function signatureCms(pdf: Buffer): Buffer {
  const ranges = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges[ranges.length - 1];
  if (!last) throw new Error('no /ByteRange in the file');
  const hex = pdf.subarray(Number(last[2]) + 1, Number(last[3]) - 1).toString('latin1');
  const bytes = Buffer.from(hex, 'hex');
  // DER: the outer SEQUENCE's length says where the zero padding starts.
  const lengthByte = bytes[1]!;
  const length = lengthByte < 0x80 ? lengthByte + 2 : bytes.subarray(2, 2 + (lengthByte & 0x7f)).readUIntBE(0, lengthByte & 0x7f) + 2 + (lengthByte & 0x7f);
  return bytes.subarray(0, length);
}

/** One element of `openssl asn1parse`'s listing: its offset, depth, header and content lengths, and what it is. */
export interface Asn1Line {
  offset: number;
  depth: number;
  header: number;
  length: number;
  text: string;
}

/** The DER as openssl lists it (an oracle independent of Imprint's own reader). */
export function asn1parse(der: Buffer, dir: string): Asn1Line[] {
  const file = path.join(dir, `asn1-${process.pid}-${Date.now()}.der`);
  fs.writeFileSync(file, der);
  const out = run('openssl', ['asn1parse', '-inform', 'DER', '-in', file], dir).toString();
  fs.rmSync(file);
  return out
    .split('\n')
    .map((line) => /^\s*(\d+):d=(\d+)\s+hl=(\d+)\s+l=\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, offset, depth, header, length, text]) => ({ offset: Number(offset), depth: Number(depth), header: Number(header), length: Number(length), text: text! }));
}

/** The signer's signature value and its time-stamp token (the unsigned id-smime-aa-timeStampToken), as openssl parses the CMS. */
export function timeStampOf(cms: Buffer, dir: string): { signatureValue: Buffer; token: Buffer } | undefined {
  const lines = asn1parse(cms, dir);
  const at = lines.findIndex((line) => /:id-smime-aa-timeStampToken\s*$/.test(line.text));
  if (at < 0) return undefined;
  const tokenLine = lines[at + 2]!; // OBJECT, then SET, then the token's SEQUENCE
  const token = cms.subarray(tokenLine.offset, tokenLine.offset + tokenLine.header + tokenLine.length);
  // The [1] of unsigned attributes follows the signature value, an OCTET STRING at the same depth.
  const before = (end: number, match: (line: Asn1Line) => boolean) => lines.slice(0, end).reverse().find(match);
  const unsigned = before(at, (line) => /cont \[ 1 \]/.test(line.text))!;
  const valueLine = before(lines.indexOf(unsigned), (line) => line.depth === unsigned.depth && /OCTET STRING/.test(line.text))!;
  return { signatureValue: cms.subarray(valueLine.offset + valueLine.header, valueLine.offset + valueLine.header + valueLine.length), token };
}
