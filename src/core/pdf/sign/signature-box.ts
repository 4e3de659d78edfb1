/**
 * The visible signature's box in a finished PDF: the first signature field not signed yet (a
 * widget with /FT /Sig and no /V), which the form step made where a `<Signature>` was printed
 * (forms/signature-fields.ts). Merging, stamping and encryption keep pages' annotations, so it is
 * found on whatever page it ended on; its /Rect is where the box was drawn. Its reason is the
 * field's seed value (/SV /Reasons), a text string, encrypted in an encrypted file.
 */
import type { PDFDict, PDFDocument, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import { ImprintError } from '../../errors.js';
import type { PdfLib } from '../pdf-lib.js';
import { aesv3Decrypt, r6FileKey } from './file-key.js';

export interface SignatureBox {
  ref: PDFRef;
  widget: PDFDict;
  page: PDFPage;
  /** left, bottom, right, top */
  rect: [number, number, number, number];
  /** The reason's bytes as the file holds them (encrypted in an encrypted file). */
  reason?: Uint8Array;
}

export function findSignatureBox(lib: PdfLib, doc: PDFDocument): SignatureBox | undefined {
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFString, PDFHexString } = lib;
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; annots && i < annots.size(); i++) {
      const ref = annots.get(i);
      const widget = ref instanceof PDFRef ? doc.context.lookupMaybe(ref, PDFDict) : undefined;
      if (!(ref instanceof PDFRef) || !widget || widget.get(PDFName.of('FT')) !== PDFName.of('Sig') || widget.has(PDFName.of('V'))) continue;
      const corners = widget.lookup(PDFName.of('Rect'), PDFArray).asArray().map((n) => doc.context.lookup(n, PDFNumber).asNumber());
      const [x1, y1, x2, y2] = corners as [number, number, number, number];
      const reason = widget.lookupMaybe(PDFName.of('SV'), PDFDict)?.lookupMaybe(PDFName.of('Reasons'), PDFArray)?.get(0);
      return {
        ref,
        widget,
        page,
        rect: [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)],
        reason: reason instanceof PDFString || reason instanceof PDFHexString ? reason.asBytes() : undefined,
      };
    }
  }
  return undefined;
}

/** The file key of an encrypted PDF, for a visible signature's appearance; refused without the right password. */
export function fileKeyFor(lib: PdfLib, doc: PDFDocument, password: string | undefined): Buffer {
  const { PDFDict, PDFName, PDFNumber, PDFString, PDFHexString } = lib;
  const handler = doc.context.lookup(doc.context.trailerInfo.Encrypt, PDFDict);
  if (handler.lookupMaybe(PDFName.of('R'), PDFNumber)?.asNumber() !== 6) {
    throw new ImprintError('USAGE', 'This PDF is encrypted with an older handler than AES-256 (R 6): its visible signature box cannot be filled. Encrypt with Imprint (--encrypt) or remove the <Signature>.');
  }
  const bytes = (key: string) => {
    const value = handler.lookup(PDFName.of(key));
    return Buffer.from(value instanceof PDFString || value instanceof PDFHexString ? value.asBytes() : []);
  };
  const key = password === undefined ? undefined : r6FileKey({ O: bytes('O'), U: bytes('U'), OE: bytes('OE'), UE: bytes('UE') }, password);
  if (!key) {
    throw new ImprintError(
      'USAGE',
      password === undefined
        ? 'This PDF is encrypted and has a visible signature box (<Signature>): drawing the signature in it needs the password it was encrypted with (--user-password or --owner-password).'
        : 'This PDF is encrypted and has a visible signature box (<Signature>): the password given opens neither as user nor as owner.',
    );
  }
  return key;
}

/** The reason as text: decrypted when the file is, then as PDF text strings are (UTF-16BE with a BOM, else PDFDocEncoding). */
export function reasonText(lib: PdfLib, reason: Uint8Array | undefined, fileKey: Buffer | undefined): string | undefined {
  if (!reason) return undefined;
  const plain = fileKey ? aesv3Decrypt(fileKey, Buffer.from(reason)) : Buffer.from(reason);
  return lib.PDFHexString.of(plain.toString('hex')).decodeText();
}
