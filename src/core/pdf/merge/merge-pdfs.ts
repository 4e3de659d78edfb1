/**
 * PDFs put into one: the main document keeps its own objects (its Info, XMP, language, tags,
 * form fields, outline and named destinations stay as they are), and the other parts' pages are
 * copied in before and after it, their links kept working (part-links.ts). The outline gets
 * one entry per part, its title the part's own Title (else its name), opening its first page,
 * with the part's own outline under it (outline.ts).
 *
 * What a part other than the main one loses, because pdf-lib copies pages and nothing of the
 * document around them: its structure tree (its pages come in untagged), its form (widgets keep
 * their look but are no fields), its attachments, page labels and document-level JavaScript.
 */
import { ImprintError } from '../../errors.js';
import { raiseLimitAdvice } from '../../limits/render-limits.js';
import type { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain, type PdfLib } from '../pdf-lib.js';
import { readOutline, writeOutline, type OutlineNode, type WrittenNode } from './outline.js';
import { detachPartPages, reattachPartLinks } from './part-links.js';

type Doc = PDFDocument;
type Ref = PDFRef;

export interface PdfPart {
  pdf: Buffer;
  /** The part in errors ("prepend[0] (cover.pdf)", "b.pdf") and, when the PDF has no Title, in the outline. */
  name: string;
  /** The outline entry's title when the PDF has no Title of its own; `name` by default. */
  fallbackTitle?: string;
}

async function load(lib: PdfLib, part: PdfPart): Promise<Doc> {
  if (!part.pdf.subarray(0, 1024).includes('%PDF-')) throw new ImprintError('INVALID_INPUT', `${part.name} is not a PDF (it does not start with %PDF-).`);
  let doc: Doc;
  try {
    doc = await lib.PDFDocument.load(part.pdf, EDIT_LOAD_OPTIONS);
  } catch (error) {
    if (error instanceof lib.EncryptedPDFError) {
      throw new ImprintError('INVALID_INPUT', `${part.name} is encrypted: merge its decrypted copy (qpdf --decrypt --password=... in.pdf out.pdf), then encrypt the result if it must be.`);
    }
    throw new ImprintError('INVALID_INPUT', `${part.name} cannot be read as a PDF: ${(error as Error).message}`, { cause: error });
  }
  if (doc.getPageCount() === 0) throw new ImprintError('INVALID_INPUT', `${part.name} has no pages.`);
  return doc;
}

function checkPages(docs: { part: PdfPart; doc: Doc }[], maxPages: number): void {
  if (!Number.isFinite(maxPages)) return;
  let total = 0;
  for (const { part, doc } of docs) {
    total += doc.getPageCount();
    if (total > maxPages) {
      throw new ImprintError('DOCUMENT_TOO_LARGE', `The merged document would have more than the ${maxPages} pages per document this service renders (reached with ${part.name}). Merge fewer or shorter parts, ${raiseLimitAdvice('maxPages')}`);
    }
  }
}

/** A part's outline, its page indexes made the merged document's pages. */
function placed(nodes: OutlineNode[], pages: Ref[]): WrittenNode[] {
  return nodes.map((node) => ({
    title: node.title,
    page: node.target ? pages[node.target.pageIndex] : undefined,
    view: node.target?.view ?? [],
    children: placed(node.children, pages),
  }));
}

/** Its title: the PDF's own, else the fallback (a file name). */
function titleOf(doc: Doc, part: PdfPart): string {
  const title = doc.getTitle()?.trim();
  return title ? title : (part.fallbackTitle ?? part.name);
}

/** The top of a page, where its outline entry opens it. */
function topOf(lib: PdfLib, doc: Doc, pageIndex: number) {
  const page = doc.getPage(pageIndex);
  const box = page.getMediaBox();
  return [lib.PDFName.of('XYZ'), lib.PDFNumber.of(box.x), lib.PDFNumber.of(box.y + box.height), lib.PDFNumber.of(0)];
}

export interface MergeLimits {
  maxPages: number;
}

/** `before`, `main` and `after` as one PDF. */
export async function mergePdfs(main: PdfPart, before: PdfPart[], after: PdfPart[], limits: MergeLimits = { maxPages: Number.POSITIVE_INFINITY }): Promise<Buffer> {
  const lib = await loadPdfLib();
  const base = await load(lib, main);
  const loaded = async (parts: PdfPart[]) => {
    const docs: { part: PdfPart; doc: Doc }[] = [];
    for (const part of parts) docs.push({ part, doc: await load(lib, part) });
    return docs;
  };
  const beforeDocs = await loaded(before);
  const afterDocs = await loaded(after);
  checkPages([...beforeDocs, { part: main, doc: base }, ...afterDocs], limits.maxPages);

  // The main document's outline is rebuilt under its entry: its old items are removed, not left as orphans.
  const mainOutline = readOutline(lib, base);
  for (const ref of mainOutline.refs) base.context.delete(ref);
  const mainPages = base.getPages().map((page) => page.ref);

  const entries: WrittenNode[] = [];
  const copyIn = async ({ part, doc }: { part: PdfPart; doc: Doc }, at: number): Promise<WrittenNode> => {
    const outline = readOutline(lib, doc).nodes;
    detachPartPages(lib, doc);
    const copied = await base.copyPages(doc, doc.getPageIndices());
    copied.forEach((page, offset) => base.insertPage(at + offset, page));
    const refs = copied.map((page) => page.ref);
    reattachPartLinks(lib, base, copied, refs);
    return { title: titleOf(doc, part), page: refs[0], view: topOf(lib, base, at), children: placed(outline, refs) };
  };

  let at = 0;
  for (const part of beforeDocs) {
    entries.push(await copyIn(part, at));
    at += part.doc.getPageCount();
  }
  entries.push({ title: titleOf(base, main), page: mainPages[0], view: topOf(lib, base, at), children: placed(mainOutline.nodes, mainPages) });
  for (const part of afterDocs) entries.push(await copyIn(part, base.getPageCount()));

  writeOutline(lib, base, entries);
  return savePlain(base);
}
