/**
 * The PDF/UA-1 step (`pdfua`): what ISO 14289-1 asks beyond the tags Chromium writes. Chromium
 * already gives the structure tree, /MarkInfo, figures' /Alt, links as Link elements and the
 * catalog's /Lang from `<html lang>`; here, on a document loaded with pdf-lib:
 *
 * - a title is required and shown by viewers instead of the file name (DisplayDocTitle);
 * - a language is required (/Lang: the template's metadata, the request's, or `<html lang>`);
 * - every link annotation gets a /Contents, its text as the page showed it;
 * - pages with annotations take their tab order from the structure (/Tabs /S);
 * - XMP metadata carries pdfuaid:part 1 and dc:title (the PDF/A step rewrites the packet with
 *   both identifications when it follows).
 *
 * Page furniture (Header, Footer, RunningHeader/Footer) is kept out of the structure tree in
 * the page itself: margin boxes are never tagged, and running bands are aria-hidden, which
 * Chromium prints as artifacts.
 */
import { createHash } from 'node:crypto';
import type { PDFDict, PDFDocument } from '@cantoo/pdf-lib';
import { ImprintError } from '../errors.js';
import type { PdfLib } from './pdf-lib.js';
import type { PageFacts } from '../render/page-facts.js';
import { buildXmp } from './xmp.js';
import { infoXmpFields, setXmp, uuidFromHex } from './document-xmp.js';

/** What a PDF/UA document cannot go without, refused with how to give it. */
function requireTitleAndLanguage(lib: PdfLib, doc: PDFDocument, facts: PageFacts): string {
  const title = doc.getTitle()?.trim();
  // Chromium's stand-in for a page without <title> is its address: no title a reader can use.
  const addressOnly = facts.url !== undefined && !facts.title && title === facts.url;
  if (!title || addressOnly) {
    throw new ImprintError(
      'INVALID_INPUT',
      'A PDF/UA document needs a title, and this one has none: give it in the template\'s metadata static (Invoice.metadata = { title: "Invoice 42" }), in the request (metadata.title; the CLI\'s --title "Invoice 42"), or as the HTML\'s <title>.',
    );
  }
  if (!doc.catalog.get(lib.PDFName.of('Lang'))) {
    throw new ImprintError(
      'INVALID_INPUT',
      'A PDF/UA document needs its language, and this one has none: give it in the template\'s metadata static (language: "en-GB"), in the request (metadata.language; the CLI\'s --lang en-GB), or as <html lang="en-GB">.',
    );
  }
  return title;
}

/** The annotation's target as page-facts.ts keys links: its URI, or "#name" for a link inside the document. */
function targetOf(lib: PdfLib, annotation: PDFDict): string | undefined {
  const { PDFName, PDFDict: Dict, PDFString, PDFHexString } = lib;
  const text = (value: unknown) => (value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : value instanceof lib.PDFName ? value.decodeText() : undefined);
  const action = annotation.lookupMaybe(PDFName.of('A'), Dict);
  const uri = action && text(action.lookup(PDFName.of('URI')));
  if (uri) return uri;
  const dest = text(annotation.lookup(PDFName.of('Dest')));
  return dest === undefined ? undefined : `#${dest}`;
}

/** Every link annotation described: the page's text for its target, in order; else where it goes. */
function describeLinks(lib: PdfLib, doc: PDFDocument, links: NonNullable<PageFacts['links']>): void {
  const { PDFName, PDFArray, PDFDict: Dict, PDFHexString } = lib;
  const names = new Map<string, string[]>();
  for (const link of links) if (link.name) names.set(link.target, [...(names.get(link.target) ?? []), link.name]);
  doc.getPages().forEach((page, index) => {
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annotations || annotations.size() === 0) return;
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    for (let i = 0; i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, Dict);
      if (!annotation || annotation.get(PDFName.of('Subtype')) !== PDFName.of('Link') || annotation.get(PDFName.of('Contents'))) continue;
      const target = targetOf(lib, annotation);
      const queue = target === undefined ? undefined : names.get(target);
      // A link drawn over two lines is two annotations: both keep the one text.
      const name = queue && queue.length > 1 ? queue.shift() : queue?.[0];
      const fallback = target === undefined ? `Link on page ${index + 1}` : target.startsWith('#') ? `Link to ${target.slice(1)} in this document` : `Link to ${target}`;
      annotation.set(PDFName.of('Contents'), PDFHexString.fromText(name ?? fallback));
    }
  });
}

export function makePdfUa(lib: PdfLib, doc: PDFDocument, pdf: Buffer, facts: PageFacts): void {
  const title = requireTitleAndLanguage(lib, doc, facts);
  doc.setTitle(title, { showInWindowTitleBar: true });
  describeLinks(lib, doc, facts.links ?? []);
  const created = doc.getCreationDate() ?? doc.getModificationDate() ?? new Date(0);
  // Same content, same ID: a deterministic render stays byte-identical.
  const documentId = uuidFromHex(createHash('md5').update(pdf).digest('hex'));
  setXmp(lib, doc, buildXmp({ pdfua: true, ...infoXmpFields(doc), created, modified: doc.getModificationDate() ?? created, documentId }));
}
