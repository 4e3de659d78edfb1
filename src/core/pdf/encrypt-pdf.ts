/**
 * The encryption step (after PDF/A and the e-invoice, before a signature): a PDF in, the same
 * PDF encrypted with AES-256 (/V 5, /R 6, the only handler ISO 32000-2 recommends) out, by
 * @cantoo/pdf-lib's own `encrypt()`, which writes R6 (qpdf --show-encryption reads R = 6 and
 * AESv3). Every object is copied as it is, so a tagged PDF's structure tree and its outline
 * stay; encryption uses fresh random salts, so an encrypted file is never byte-identical to
 * another, even from a deterministic render. The options come from encrypt-options.ts.
 */
import { randomBytes } from 'node:crypto';
import type { SecurityOptions } from '@cantoo/pdf-lib';
import type { EncryptOptions, Permissions } from './encrypt-options.js';
import { loadPdfLib } from './pdf-lib.js';

/** As finish-pdf.ts: pdf-lib works in slices this large, a few ms each, yielding between them. */
const OBJECTS_PER_TICK = 2000;

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

export async function encryptPdf(pdf: Buffer, options: EncryptOptions): Promise<Buffer> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: OBJECTS_PER_TICK });
  doc.encrypt({
    algorithm: 'AES-256',
    userPassword: options.userPassword ?? '',
    // No owner password given: one nobody keeps, so nobody can lift the permissions (with the
    // user password as the owner's too, opening the file would give every right).
    ownerPassword: options.ownerPassword ?? randomBytes(24).toString('base64url'),
    permissions: securityPermissions(options.permissions),
  });
  return Buffer.from(await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK }));
}
