/**
 * An XMP packet put into a document loaded with pdf-lib, by the steps that write one (PDF/A,
 * PDF/UA): the Info fields it restates, read from the document, and the packet itself as the
 * catalog's /Metadata, uncompressed, as PDF/A wants (readable without decoding).
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { PdfLib } from './pdf-lib.js';
import type { XmpFields } from './xmp.js';

/** 32 hex digits as a UUID's 8-4-4-4-12 (xmpMM:DocumentID). */
export const uuidFromHex = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/** The Info dictionary's fields, which XMP restates (PDF/A requires the two to agree). */
export function infoXmpFields(doc: PDFDocument): Pick<XmpFields, 'title' | 'author' | 'subject' | 'keywords' | 'creator' | 'producer'> {
  return { title: doc.getTitle(), author: doc.getAuthor(), subject: doc.getSubject(), keywords: doc.getKeywords(), creator: doc.getCreator(), producer: doc.getProducer() };
}

export function setXmp(lib: PdfLib, doc: PDFDocument, xmp: string): void {
  const metadata = doc.context.stream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(lib.PDFName.of('Metadata'), doc.context.register(metadata));
}
