/**
 * `imprint verify`: each signature of a PDF read back and judged on its own bytes. For each
 * one: who signed (the certificate in the CMS), when (the time-stamp's time for B-T, else the
 * claimed /M), whether the signed byte ranges still hash to what was signed and the signature
 * over that verifies, and whether the last one covers the whole file (bytes appended after it
 * are a change after signing, ISO 32000-1 12.8.1). Imprint's own signatures also say which
 * template and version made the document (the /Prop_Build entry sign-pdf.ts writes).
 * Whether the signer's certificate is trusted depends on the reader's trust store, which is
 * not judged here (pdfsig with an NSS database, or Acrobat, does that).
 */
import { createHash, type X509Certificate } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { ImprintError } from '../../errors.js';
import { loadPdfLib } from '../pdf-lib.js';
import { checkSignedData, type SignedDataCheck } from './cms-read.js';
import { readElement } from './der.js';
import { OID } from './oids.js';
import { readTstInfo } from './timestamp.js';

export interface SignerReport {
  commonName: string | undefined;
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
}

export interface SignatureReport {
  field: string | undefined;
  subFilter: string | undefined;
  /** PAdES baseline level: B-T with a signature time-stamp, B-B without. */
  level: 'B-B' | 'B-T' | undefined;
  signer: SignerReport | undefined;
  /** The signer's claimed time (/M), ISO 8601. */
  claimedTime: string | undefined;
  timestamp: { time: string; authority: string | undefined; valid: boolean } | undefined;
  byteRange: number[];
  /** The signed ranges hash to the message digest that was signed. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer's key. */
  signatureValid: boolean;
  /** The ranges cover the whole file but the signature itself. */
  coversWholeFile: boolean;
  /** Bytes after the signed ranges: a later change (an incremental update) when not zero. */
  bytesAfter: number;
  imprint: { software: string | undefined; template: string | undefined; version: number | undefined } | undefined;
  /** Why the signature could not be read, when it could not (then it is not valid). */
  problem?: string;
}

export interface VerifyReport {
  signatures: SignatureReport[];
  /** Every signature's digest, signature and time-stamp check out. */
  valid: boolean;
  /** The last signature covers the whole file: nothing changed after signing. */
  unchanged: boolean;
}

function signatureFields(doc: PDFDocument): Array<{ name: string | undefined; value: PDFDict }> {
  const found: Array<{ name: string | undefined; value: PDFDict }> = [];
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const walk = (entry: PDFObject | undefined, depth: number) => {
    const field = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
    if (!(field instanceof PDFDict) || depth > 32) return;
    const value = field.lookup(PDFName.of('V'));
    if (field.lookup(PDFName.of('FT')) === PDFName.of('Sig') && value instanceof PDFDict) {
      const name = field.lookup(PDFName.of('T'));
      found.push({ name: name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : undefined, value });
    }
    const kids = field.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) walk(kid, depth + 1);
  };
  const fields = acroForm?.lookup(PDFName.of('Fields'));
  if (fields instanceof PDFArray) for (const field of fields.asArray()) walk(field, 0);
  return found;
}

const nameText = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : undefined);

function signerReport(certificate: X509Certificate): SignerReport {
  return {
    commonName: /(?:^|\n)CN=([^\n]*)/.exec(certificate.subject)?.[1],
    subject: certificate.subject.split('\n').join(', '),
    issuer: certificate.issuer.split('\n').join(', '),
    serialNumber: certificate.serialNumber,
    validFrom: new Date(certificate.validFrom).toISOString(),
    validTo: new Date(certificate.validTo).toISOString(),
  };
}

/** A PDF date (D:YYYYMMDDHHmmSS with its offset) as ISO 8601. */
function pdfDateToIso(text: string): string | undefined {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(text);
  if (!match) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5)}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function imprintMark(signature: PDFDict): SignatureReport['imprint'] {
  const build = signature.lookup(PDFName.of('Prop_Build'));
  const mark = build instanceof PDFDict ? build.lookup(PDFName.of('Imprint')) : undefined;
  if (!(mark instanceof PDFDict)) return undefined;
  const version = mark.lookup(PDFName.of('Version'));
  return { software: nameText(mark.lookup(PDFName.of('Software'))), template: nameText(mark.lookup(PDFName.of('Template'))), version: version instanceof PDFNumber ? version.asNumber() : undefined };
}

function judge(pdf: Buffer, field: string | undefined, signature: PDFDict): SignatureReport {
  const ranges = signature.lookup(PDFName.of('ByteRange'));
  const byteRange = ranges instanceof PDFArray ? ranges.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN)) : [];
  const contents = signature.lookup(PDFName.of('Contents'));
  const claimed = signature.lookup(PDFName.of('M'));
  const report: SignatureReport = {
    field,
    subFilter: nameText(signature.lookup(PDFName.of('SubFilter'))),
    level: undefined,
    signer: undefined,
    claimedTime: claimed instanceof PDFString ? pdfDateToIso(claimed.asString()) : undefined,
    timestamp: undefined,
    byteRange,
    digestMatches: false,
    signatureValid: false,
    coversWholeFile: false,
    bytesAfter: 0,
    imprint: imprintMark(signature),
  };
  const [start, firstLength, second, secondLength] = byteRange;
  const wellFormed = byteRange.length === 4 && byteRange.every((n) => Number.isInteger(n) && n >= 0) && start === 0 && firstLength! < second! && second! + secondLength! <= pdf.length;
  if (!wellFormed || !(contents instanceof PDFHexString || contents instanceof PDFString)) return report;
  const end = second! + secondLength!;
  report.bytesAfter = pdf.length - end;
  report.coversWholeFile = report.bytesAfter === 0;
  // The CMS is DER: its own length says where it ends in the zero-padded placeholder.
  const padded = Buffer.from(contents.asBytes());
  let check: SignedDataCheck;
  try {
    const cms = padded.subarray(0, readElement(padded).bytes.length);
    check = checkSignedData(cms, (digest) => createHash(digest).update(pdf.subarray(0, firstLength)).update(pdf.subarray(second, end)).digest());
  } catch (error) {
    // A signature that cannot be parsed is reported as such: not valid, and why.
    report.problem = `unreadable signature: ${error instanceof Error ? error.message : String(error)}`;
    return report;
  }
  report.digestMatches = check.digestMatches;
  report.signatureValid = check.signatureValid;
  report.signer = check.signer ? signerReport(check.signer) : undefined;
  const token = check.unsigned.get(OID.signatureTimeStampToken);
  if (token) {
    const tokenCheck = checkSignedData(Buffer.from(token.bytes));
    const info = tokenCheck.content ? readTstInfo(tokenCheck.content) : undefined;
    const imprintMatches = info !== undefined && createHash(tokenCheck.digest).update(check.signatureValue).digest().equals(info.imprint.hash);
    if (info) report.timestamp = { time: info.time.toISOString(), authority: tokenCheck.signer ? signerReport(tokenCheck.signer).commonName : undefined, valid: imprintMatches && tokenCheck.digestMatches && tokenCheck.signatureValid };
  }
  if (report.subFilter === 'ETSI.CAdES.detached') report.level = report.timestamp ? 'B-T' : 'B-B';
  return report;
}

export async function verifyPdf(pdf: Buffer, what: string): Promise<VerifyReport> {
  const { PDFDocument } = await loadPdfLib();
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `Cannot read ${what} as a PDF: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const signatures = signatureFields(doc).map(({ name, value }) => judge(pdf, name, value));
  signatures.sort((a, b) => (a.byteRange[2] ?? 0) + (a.byteRange[3] ?? 0) - ((b.byteRange[2] ?? 0) + (b.byteRange[3] ?? 0)));
  const last = signatures[signatures.length - 1];
  return {
    signatures,
    valid: signatures.length > 0 && signatures.every((s) => s.digestMatches && s.signatureValid && (s.timestamp === undefined || s.timestamp.valid)),
    unchanged: last !== undefined && last.coversWholeFile,
  };
}
