/**
 * The encryption step (after PDF/A and the e-invoice, before a signature): a PDF in, the same
 * PDF encrypted with AES-256 (/V 5, /R 6, the only handler ISO 32000-2 recommends) out, by
 * @cantoo/pdf-lib's own `encrypt()`, which writes R6 (qpdf --show-encryption reads R = 6 and
 * AESv3). Every object is copied as it is, so a tagged PDF's structure tree and its outline
 * stay; encryption uses fresh random salts, so an encrypted file is never byte-identical to
 * another, even from a deterministic render. The options come from encrypt-options.ts.
 */
import { randomBytes } from 'node:crypto';
import type { PDFContext, PDFDocument, PDFObject, SecurityOptions } from '@cantoo/pdf-lib';
import type { EncryptOptions, Permissions } from './encrypt-options.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain } from './pdf-lib.js';

/** Our permission vocabulary as the PDF's permission bits (ISO 32000-2, table 22). */
export function securityPermissions(permissions: Permissions): NonNullable<SecurityOptions['permissions']> {
  const { modify } = permissions;
  return {
    printing: permissions.print === 'none' ? false : permissions.print === 'low' ? 'lowResolution' : 'highResolution',
    modifying: modify === 'all',
    fillingForms: modify !== 'none',
    documentAssembly: modify === 'assembly' || modify === 'all',
    copying: permissions.copy,
    annotating: permissions.annotate,
    // Screen readers may always read it: protection must not undo a tagged PDF's accessibility.
    contentAccessibility: true,
  };
}

type PdfLib = Awaited<ReturnType<typeof loadPdfLib>>;

/**
 * @cantoo/pdf-lib 2.11 encrypts streams only (PDFWriter.encrypt) and writes every string as it
 * was, while the /Encrypt dictionary tells readers to decrypt strings too: each one (the Info
 * fields, a tagged PDF's /Alt, /ActualText and element IDs, link URIs) would read as empty or
 * garbage. So every string of every object but the /Encrypt dictionary is encrypted here, with
 * the handler pdf-lib made (R6 uses one file key; each string gets its own random IV), and
 * written as a hex string. Found by the e2e test: qpdf --decrypt showed Limits () where there
 * had been (node00000044).
 */
function encryptStrings(lib: PdfLib, doc: PDFDocument): void {
  const context = doc.context as PDFContext & { security?: { getEncryptFn(objectNumber: number, generation: number): (bytes: Uint8Array) => Uint8Array } };
  const security = context.security;
  if (!security) throw new Error('pdf-lib made no security handler: encrypt() was not called');
  const encryptDict = context.trailerInfo.Encrypt;
  const { PDFArray, PDFDict, PDFHexString, PDFStream, PDFString } = lib;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (encryptDict && ref === encryptDict) continue;
    const encrypt = security.getEncryptFn(ref.objectNumber, ref.generationNumber);
    const sealed = (value: PDFObject): PDFObject => {
      if (value instanceof PDFString || value instanceof PDFHexString) return PDFHexString.of(Buffer.from(encrypt(value.asBytes())).toString('hex'));
      if (value instanceof PDFArray) {
        for (let index = 0; index < value.size(); index++) value.set(index, sealed(value.get(index)));
      } else if (value instanceof PDFDict) {
        for (const [key, entry] of value.entries()) value.set(key, sealed(entry));
      }
      return value;
    };
    if (object instanceof PDFStream) sealed(object.dict);
    else sealed(object);
  }
}

export async function encryptPdf(pdf: Buffer, options: EncryptOptions): Promise<Buffer> {
  const lib = await loadPdfLib();
  const { PDFDocument } = lib;
  const doc = await PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  doc.encrypt({
    algorithm: 'AES-256',
    userPassword: options.userPassword ?? '',
    // No owner password given: one nobody keeps, so nobody can lift the permissions (with the
    // user password as the owner's too, opening the file would give every right).
    ownerPassword: options.ownerPassword ?? randomBytes(24).toString('base64url'),
    permissions: securityPermissions(options.permissions),
  });
  encryptStrings(lib, doc);
  return savePlain(doc);
}
