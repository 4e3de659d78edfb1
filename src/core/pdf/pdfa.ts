/**
 * The PDF/A step (PDF/A-2b or -3b), run after the finishing step and only when a render asks
 * for it, so the default path is unchanged. Chromium's PDF already embeds every font and keeps
 * its tags; what PDF/A adds is written here, in place, without a pass through Ghostscript or
 * LibreOffice (which rasterise or drop what Chromium drew):
 *
 * - an OutputIntent (GTS_PDFA1) carrying the sRGB ICC profile, so DeviceRGB is defined;
 * - an XMP metadata stream that states the PDF/A part and restates the Info fields (xmp.ts);
 * - a document /ID in the trailer, derived from the content, so a deterministic render stays
 *   byte-identical;
 * - the print flag on every annotation (Chromium's links have none);
 * - for Factur-X / ZUGFeRD / XRechnung, the invoice XML as an associated file (/AF) with its
 *   AFRelationship, and the fx: XMP extension schema (PDF/A-3 only).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { ImprintError } from '../errors.js';
import { packageRoot, runtimeFile } from '../package-root.js';
import { literalFileSpecNames } from './file-spec-names.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain } from './pdf-lib.js';
import { buildXmp } from './xmp.js';
import { infoXmpFields, setXmp, uuidFromHex } from './document-xmp.js';

export const PDFA_LEVELS = ['2b', '3b'] as const;
export type PdfaLevel = (typeof PDFA_LEVELS)[number];

export function parsePdfaLevel(value: unknown): PdfaLevel {
  if (typeof value === 'string' && (PDFA_LEVELS as readonly string[]).includes(value.toLowerCase())) return value.toLowerCase() as PdfaLevel;
  throw new ImprintError('USAGE', `Invalid pdfa ${JSON.stringify(value)}: use 2b (PDF/A-2b, archiving) or 3b (PDF/A-3b, which may carry attachments such as an e-invoice's XML).`);
}

export interface PdfaAttachment {
  fileName: string;
  bytes: Buffer;
  mimeType: string;
  description: string;
  relationship: 'Data' | 'Alternative' | 'Source' | 'Supplement' | 'Unspecified';
  /** The Factur-X XMP properties (fx:ConformanceLevel as the specification spells it, "EN 16931"). */
  facturX?: { conformanceLevel: string };
}

export interface PdfaRequest {
  level: PdfaLevel;
  attachment?: PdfaAttachment;
  /** Also a PDF/UA-1 (the accessibility step ran): the XMP carries both identifications. */
  pdfua?: boolean;
}

/** sRGB IEC 61966-2.1, from Debian's icc-profiles-free (Zlib licence; icc/LICENSE). */
let srgbProfile: Buffer | undefined;
function srgb(): Buffer {
  if (srgbProfile) return srgbProfile;
  const file = runtimeFile(packageRoot(), 'core/pdf/icc/sRGB.icc');
  try {
    srgbProfile = fs.readFileSync(file);
  } catch (error) {
    // An installation without the profile is broken, not the request: say which file is missing and how to get it back.
    throw new ImprintError('INTERNAL', `Imprint's sRGB colour profile (for PDF/A and e-invoices) is missing: ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Reinstall imprint.`, { cause: error });
  }
  return srgbProfile;
}

export async function makePdfA(pdf: Buffer, request: PdfaRequest): Promise<Buffer> {
  if (request.attachment && request.level !== '3b') throw new ImprintError('USAGE', 'An embedded file needs PDF/A-3b: PDF/A-2b allows no attachments other than PDF/A files.');
  const lib = await loadPdfLib();
  const { PDFDocument, PDFName, PDFString, PDFHexString, PDFArray, PDFDict, PDFNumber, PDFHeader } = lib;
  const doc = await PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  const context = doc.context;
  const part = request.level === '3b' ? 3 : 2;
  // PDF/A-2 and -3 are ISO 32000-1 (PDF 1.7); associated files are a 1.7 extension.
  context.header = PDFHeader.forVersion(1, 7);

  // The Info dates as the finishing step left them (a deterministic render's fixed date).
  const created = doc.getCreationDate() ?? doc.getModificationDate() ?? new Date(0);
  const modified = doc.getModificationDate() ?? created;
  // Rewritten in the form XMP restates, to the second: the two must agree.
  doc.setCreationDate(created);
  doc.setModificationDate(modified);

  // Same content, same ID: a hash of the document and of what is attached.
  const hash = createHash('md5').update(pdf);
  if (request.attachment) hash.update(request.attachment.bytes);
  const id = hash.digest('hex');
  context.trailerInfo.ID = context.obj([PDFHexString.of(id), PDFHexString.of(id)]);

  const profile = context.flateStream(srgb(), { N: 3 });
  const outputIntent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: context.register(profile),
  });
  doc.catalog.set(PDFName.of('OutputIntents'), context.obj([outputIntent]));

  // PDF/A: every annotation is printed as seen (F has the Print bit, 4), hidden ones are not allowed.
  for (const page of doc.getPages()) {
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; annotations && i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      if (!annotation) continue;
      const flags = annotation.lookupMaybe(PDFName.of('F'), PDFNumber)?.asNumber() ?? 0;
      annotation.set(PDFName.of('F'), PDFNumber.of((flags | 4) & ~(1 | 2 | 32)));
    }
  }

  const attachment = request.attachment;
  if (attachment) {
    await doc.attach(attachment.bytes, attachment.fileName, {
      mimeType: attachment.mimeType,
      description: attachment.description,
      creationDate: modified,
      modificationDate: modified,
      afRelationship: lib.AFRelationship[attachment.relationship],
    });
    // Embedded now (save() would do it later) so that its file spec can be written as tools expect.
    await doc.flush();
    literalFileSpecNames(doc, lib, attachment.fileName);
  }

  const xmp = buildXmp({
    part,
    pdfua: request.pdfua,
    ...infoXmpFields(doc),
    created,
    modified,
    documentId: uuidFromHex(id),
    facturX: attachment?.facturX ? { fileName: attachment.fileName, conformanceLevel: attachment.facturX.conformanceLevel } : undefined,
  });
  setXmp(lib, doc, xmp);

  return savePlain(doc);
}
