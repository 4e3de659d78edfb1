/**
 * A PAdES signature on a finished PDF, the last step of the pipeline (engine.ts finished()).
 * The signature field, its widget and the signature dictionary are appended as an incremental
 * update (incremental-update.ts), so the bytes before it are the document exactly as it was
 * finished: a PDF/A-3b e-invoice keeps its attachment and metadata, an encrypted file its
 * encryption. The dictionary holds a fixed-size /Contents placeholder; once the update is
 * written its /ByteRange names everything but that placeholder (the whole file), the ranges are
 * hashed, and the CMS (cades.ts) is written into the placeholder in hex.
 *
 * An encrypted file's strings are encrypted with its key, which an invisible signature does not
 * need and does not ask for: the update writes no string but /Contents (which is never
 * encrypted), so the field's name, the signing time and Imprint's mark are left out or written
 * as names. A visible signature (the box a `<Signature>` left, signature-box.ts) is filled with
 * an appearance stream, which an encrypted file needs encrypted: that takes its password.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';
import type { PdfLib } from '../pdf-lib.js';
import { ImprintError } from '../../errors.js';
import { loadPdfLib } from '../pdf-lib.js';
import { cadesSignature, type TimeStamper } from './cades.js';
import { incrementalUpdate, lastStartXref, withEntries, type UpdateObject } from './incremental-update.js';
import type { SigningKey } from './signing-key.js';
import { aesv3Encrypt } from './file-key.js';
import { appearanceContent } from './signature-appearance.js';
import { fileKeyFor, findSignatureBox, reasonText, type SignatureBox } from './signature-box.js';

export interface SignRequest {
  key: SigningKey;
  /** B-T: a time-stamp over the signature value (timestamp.ts); none makes a B-B signature. */
  timeStamp?: TimeStamper;
  /** Which template and version made the document, written into the signed dictionary for `imprint verify`. */
  madeBy?: { software: string; template?: string; version?: number };
  /** The claimed signing time (/M, and the date a visible signature shows); the clock by default. */
  signingTime?: Date;
  /** An encrypted file's user or owner password: a visible signature's appearance is encrypted with its key. */
  password?: string;
}

/** Room for the CMS beyond its certificates: attributes, signature value, a time-stamp token with its TSA's chain. */
const CMS_OVERHEAD = 4096;
const TIMESTAMP_ROOM = 12288;
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 ********** ********** **********]';

/** A PDF name for any text (ISO 32000-1 7.3.5: bytes outside the regular characters as #xx). */
const nameOf = (text: string) =>
  `/${[...Buffer.from(text, 'utf8')].map((byte) => (byte > 0x20 && byte < 0x7f && !'#()<>[]{}/%'.includes(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `#${byte.toString(16).padStart(2, '0')}`)).join('')}`;

const pdfDate = (date: Date) => `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/** The elements of an array entry (direct, or behind a reference). */
function fieldsOf(doc: PDFDocument, value: unknown): unknown[] {
  const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
  return resolved instanceof PDFArray ? resolved.asArray() : [];
}

/** An array entry (direct, or behind a reference) with one more element, written inline. */
function withElement(doc: PDFDocument, value: unknown, element: PDFRef): string {
  const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
  const items = resolved instanceof PDFArray ? resolved.asArray().map((item) => item.toString()) : [];
  return `[${[...items, element.toString()].join(' ')}]`;
}

/** A string's bytes in hex, encrypted with `fileKey` when the file is; undefined when it is and the key is unknown. */
function pdfString(bytes: Buffer, encrypted: boolean, fileKey: Buffer | undefined): string | undefined {
  if (encrypted && !fileKey) return undefined;
  return `<${(fileKey ? aesv3Encrypt(fileKey, bytes) : bytes).toString('hex')}>`;
}

/** A text string's bytes: UTF-16BE with its BOM. */
const utf16be = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();

type Strings = { text(value: string): string | undefined; bytes(value: string): string | undefined };

function signatureDictionary(request: SignRequest, contentsLength: number, signingTime: Date, strings: Strings, reason?: string): string {
  const made = request.madeBy;
  const imprint = made
    ? ` /Prop_Build << /App << /Name /Imprint >> /Imprint << /Software ${nameOf(made.software)}${made.template === undefined ? '' : ` /Template ${nameOf(made.template)}`}${made.version === undefined ? '' : ` /Version ${made.version}`} >> >>`
    : '';
  const time = strings.bytes(pdfDate(signingTime));
  const why = reason === undefined ? undefined : strings.text(reason);
  return `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${BYTE_RANGE_PLACEHOLDER}${time ? ` /M ${time}` : ''}${why ? ` /Reason ${why}` : ''}${imprint}\n/Contents <${'0'.repeat(contentsLength * 2)}> >>`;
}

/** The box's appearance: a form XObject as wide and high as its /Rect, encrypted when the file is. */
function appearanceStream(lib: PdfLib, box: SignatureBox, request: SignRequest, signingTime: Date, reason: string | undefined, fileKey: Buffer | undefined): string {
  const [x1, y1, x2, y2] = box.rect;
  const { content, font } = appearanceContent(lib, { certificate: request.key.certificate, signingTime, reason }, x2 - x1, y2 - y1);
  const data = fileKey ? aesv3Encrypt(fileKey, Buffer.from(content, 'latin1')) : Buffer.from(content, 'latin1');
  return `<< /Type /XObject /Subtype /Form /BBox [0 0 ${x2 - x1} ${y2 - y1}] /Resources << /Font << /Helv ${font} >> >> /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`;
}

export async function signPdf(pdf: Buffer, request: SignRequest): Promise<Buffer> {
  const lib = await loadPdfLib();
  const { PDFDocument } = lib;
  const doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  const context = doc.context;
  const encrypted = context.trailerInfo.Encrypt !== undefined;
  const catalogRef = context.trailerInfo.Root;
  if (!(catalogRef instanceof PDFRef)) throw new ImprintError('INVALID_INPUT', 'Cannot sign this PDF: its trailer has no catalog reference.');
  const box = findSignatureBox(lib, doc);
  const page = box?.page ?? doc.getPage(0);
  const fileKey = encrypted && box ? fileKeyFor(lib, doc, request.password) : undefined;
  const signingTime = request.signingTime ?? new Date();
  const reason = box ? reasonText(lib, box.reason, fileKey) : undefined;
  const strings: Strings = {
    text: (value) => pdfString(utf16be(value), encrypted, fileKey),
    // A date or a name: plain ASCII, written literally where nothing is encrypted (verify-pdf.ts reads /M so).
    bytes: (value) => (encrypted ? pdfString(Buffer.from(value, 'latin1'), encrypted, fileKey) : `(${value})`),
  };
  const { startXref, xrefStream } = lastStartXref(pdf);

  let next = Math.max(context.largestObjectNumber + 1, context.trailerInfo.Size?.asNumber() ?? 0);
  const newRef = () => PDFRef.of(next++);
  const signatureRef = newRef();
  const widgetRef = box?.ref ?? newRef();
  const objects: UpdateObject[] = [];

  const acroFormEntry = doc.catalog.get(PDFName.of('AcroForm'));
  const acroForm = acroFormEntry instanceof PDFRef ? context.lookup(acroFormEntry, PDFDict) : acroFormEntry instanceof PDFDict ? acroFormEntry : context.obj({});
  const existingFields = acroForm.get(PDFName.of('Fields'));
  const fieldCount = (existingFields instanceof PDFRef ? context.lookup(existingFields) : existingFields) instanceof PDFArray ? (context.lookup(existingFields as PDFRef | PDFArray) as PDFArray).size() : 0;
  const acroFormRef = acroFormEntry instanceof PDFRef ? acroFormEntry : newRef();

  const contentsLength = CMS_OVERHEAD + request.key.certificate.length + request.key.chain.reduce((sum, der) => sum + der.length, 0) + (request.timeStamp ? TIMESTAMP_ROOM : 0);
  objects.push({ ref: signatureRef, body: signatureDictionary(request, contentsLength, signingTime, strings, reason) });
  if (box) {
    // The box's field, signed: its value, and the appearance every viewer draws (the page's own box under it).
    const appearanceRef = newRef();
    objects.push({ ref: appearanceRef, body: appearanceStream(lib, box, request, signingTime, reason, fileKey) });
    objects.push({ ref: widgetRef, body: withEntries(box.widget, { V: signatureRef.toString(), AP: `<< /N ${appearanceRef} >>`, F: '4', P: page.ref.toString() }) });
  } else {
    // The field's name is a text string, which an encrypted file would need encrypted: there it is left out (it is optional).
    const fieldName = strings.bytes(`Signature${fieldCount + 1}`);
    objects.push({ ref: widgetRef, body: `<< /Type /Annot /Subtype /Widget /FT /Sig${fieldName ? ` /T ${fieldName}` : ''} /V ${signatureRef} /F 132 /Rect [0 0 0 0] /P ${page.ref} >>` });
  }
  // A merged document keeps its pages' widgets but may have lost the form listing the box's field.
  const fields = fieldsOf(doc, existingFields);
  const listed = fields.includes(widgetRef);
  objects.push({ ref: acroFormRef, body: withEntries(acroForm, { Fields: listed ? `[${fields.join(' ')}]` : withElement(doc, existingFields, widgetRef), SigFlags: '3' }) });
  if (!(acroFormEntry instanceof PDFRef)) objects.push({ ref: catalogRef, body: withEntries(doc.catalog, { AcroForm: acroFormRef.toString() }) });
  if (!box) objects.push({ ref: page.ref, body: withEntries(page.node, { Annots: withElement(doc, page.node.get(PDFName.of('Annots')), widgetRef) }) });

  const { Root, Info, ID, Encrypt } = context.trailerInfo;
  const update = incrementalUpdate(pdf, { startXref, xrefStream, entries: { Root, Info, ID, Encrypt }, size: next }, objects);
  const signed = Buffer.concat([pdf, update]);
  return fillSignature(signed, pdf.length, contentsLength, request);
}

/** The /ByteRange and /Contents of the update's signature dictionary, written in place. */
async function fillSignature(file: Buffer, updateStart: number, contentsLength: number, request: SignRequest): Promise<Buffer> {
  const rangeAt = file.indexOf(BYTE_RANGE_PLACEHOLDER, updateStart, 'latin1');
  const contentsAt = file.indexOf('/Contents <', rangeAt, 'latin1') + '/Contents '.length;
  const contentsEnd = contentsAt + contentsLength * 2 + 2;
  const byteRange = [0, contentsAt, contentsEnd, file.length - contentsEnd];
  const rangeText = `/ByteRange [${byteRange.join(' ')}]`;
  if (rangeText.length > BYTE_RANGE_PLACEHOLDER.length) throw new ImprintError('DOCUMENT_TOO_LARGE', 'The document is too large to sign (over 9.9 GB).');
  file.write(rangeText.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), rangeAt, 'latin1');
  const digest = createHash('sha256').update(file.subarray(0, contentsAt)).update(file.subarray(contentsEnd)).digest();
  const cms = await cadesSignature(digest, request.key, request.timeStamp);
  if (cms.length > contentsLength) throw new ImprintError('INTERNAL', `The signature (${cms.length} bytes) outgrew its placeholder (${contentsLength} bytes).`);
  file.write(cms.toString('hex').toUpperCase(), contentsAt + 1, 'latin1');
  return file;
}
