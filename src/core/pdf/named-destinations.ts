/**
 * Where a Chromium PDF's link targets landed: Chromium (Skia) writes a named destination,
 * `/Dests << /name [pageRef /XYZ x y 0] >>` in the catalog, for the target of every
 * `<a href="#id">` of the document, printed or not (a link with display: none counts), and
 * for nothing else. Read with pdf-lib: 4 to 6 ms for a 31-page file, once its module is loaded
 * (bench/README.md, table of contents). A name tree (`/Names /Dests`), which other producers
 * write, is read as well.
 */
import type { PDFDict as PdfDict, PDFObject } from '@cantoo/pdf-lib';
import { loadPdfLib } from './pdf-lib.js';

export interface DestinationPages {
  /** The document's number of pages. */
  pages: number;
  /** The page (from 1) of each named destination, by its name as written (#xx escapes decoded). */
  destinations: Map<string, number>;
}

export async function readDestinationPages(pdf: Uint8Array): Promise<DestinationPages> {
  const { PDFDocument, PDFName, PDFDict, PDFArray, PDFRef, PDFString, PDFHexString } = await loadPdfLib();
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const context = document.context;
  const pageOfRef = new Map(document.getPages().map((page, index) => [page.ref.toString(), index + 1]));
  const destinations = new Map<string, number>();

  const pageOf = (value: PDFObject | undefined): number | undefined => {
    const resolved = value instanceof PDFRef ? context.lookup(value) : value;
    // A destination is an array [page ...], or a dictionary holding one as /D.
    const array = resolved instanceof PDFDict ? resolved.lookup(PDFName.of('D')) : resolved;
    const page = array instanceof PDFArray ? array.get(0) : undefined;
    return page instanceof PDFRef ? pageOfRef.get(page.toString()) : undefined;
  };
  const add = (name: string, value: PDFObject | undefined) => {
    const page = pageOf(value);
    if (page !== undefined) destinations.set(name, page);
  };

  const dests = document.catalog.lookup(PDFName.of('Dests'));
  if (dests instanceof PDFDict) for (const [name, value] of dests.entries()) add(name.decodeText(), value);

  const names = document.catalog.lookup(PDFName.of('Names'));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of('Dests')) : undefined;
  const walk = (node: PdfDict, depth: number) => {
    // A bound on the depth: a malformed tree may point back at itself.
    if (depth > 32) return;
    const pairs = node.lookup(PDFName.of('Names'));
    if (pairs instanceof PDFArray) {
      for (let i = 0; i + 1 < pairs.size(); i += 2) {
        const key = pairs.lookup(i);
        if (key instanceof PDFString || key instanceof PDFHexString) add(key.decodeText(), pairs.get(i + 1));
      }
    }
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) walk(kid, depth + 1);
    }
  };
  if (tree instanceof PDFDict) walk(tree, 0);
  return { pages: document.getPageCount(), destinations };
}
