/**
 * The step after the print: the PDF's Info fields, catalog language and dates. Chromium names
 * the headless browser's user agent as the Creator and the moment of printing as the dates;
 * here Creator and Producer become Imprint's, the template's and the request's metadata are
 * written, and a deterministic render gets its fixed date (document-date.ts).
 *
 * A PDF as Chromium writes it is edited in place (info-rewrite.ts): the Info dictionary and,
 * when asked, the catalog are rewritten and every other object is copied as it is, a few
 * hundred microseconds. Any other PDF, or one of a shape that path does not know, is
 * rewritten with @cantoo/pdf-lib (the maintained fork of pdf-lib), which
 * copies every object as it is: the structure tree of a tagged PDF survives. The rewrite is
 * deterministic too (no document /ID, no clock; Chromium writes no /ID either), and loading
 * with `updateMetadata: false` keeps pdf-lib from stamping its own name and the time.
 */
import { imprintSoftwareName } from '../version.js';
import { mergeMetadata, parseDocumentMetadata, type DocumentMetadata } from './document-metadata.js';
import { rewriteInfo, rewriteInfoPacked, type InfoEdit, type ProducerOf } from './info-rewrite.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain } from './pdf-lib.js';

export interface Finishing {
  /** What the template's `metadata` static resolved to in the page: untrusted, read here. */
  templateMetadata?: unknown;
  /** The request's fields; each wins over the template's. */
  metadata?: DocumentMetadata;
  /** A deterministic render's date; undefined keeps Chromium's (the real time). */
  date?: Date;
}

/** The same fields pdf-lib's path sets below, for the fast path (info-rewrite.ts). */
function infoEdit(metadata: DocumentMetadata, software: string, date: Date | undefined): InfoEdit {
  const text: Record<string, string> = { Creator: metadata.creator ?? software };
  if (metadata.title !== undefined) text.Title = metadata.title;
  if (metadata.author !== undefined) text.Author = metadata.author;
  if (metadata.subject !== undefined) text.Subject = metadata.subject;
  if (metadata.keywords !== undefined) text.Keywords = metadata.keywords.join(', ');
  return {
    text,
    dates: date ? { CreationDate: date, ModDate: date } : {},
    language: metadata.language,
    displayDocTitle: metadata.title !== undefined,
  };
}

/** What a finish writes, decided once for both of its paths: the final fields, the software's name, and the fast paths' edit. */
interface FinishPlan {
  metadata: DocumentMetadata;
  software: string;
  edit: InfoEdit;
  producer: ProducerOf;
}

/** The plan for `finishing`; throws RENDER_FAILED for a template's metadata of the wrong form, before any byte is read. */
export function finishPlan(finishing: Finishing): FinishPlan {
  const metadata = finalMetadata(finishing);
  const software = imprintSoftwareName();
  return { metadata, software, edit: infoEdit(metadata, software, finishing.date), producer: producerOf(software) };
}

export async function finishPdf(pdf: Buffer, finishing: Finishing = {}): Promise<Buffer> {
  const plan = finishPlan(finishing);
  return rewriteInfo(pdf, plan.edit, plan.producer) ?? (await editWithPdfLib(pdf, plan.metadata, plan.software, finishing.date));
}

/**
 * finishPdf and then the tags packed into object streams (accessibility.ts's compactTags), in
 * one pass over the bytes: what the default render's finishing does when no step between the
 * two has anything to do (finish-print.ts). The same bytes as the two steps; undefined for a
 * PDF of another shape than Chromium's (the caller then takes the two steps). A print spooled to
 * a file is finished the same way from file to file (spooled/finish-file.ts).
 */
export function finishPdfPacked(pdf: Buffer, finishing: Finishing = {}): Buffer | undefined {
  const plan = finishPlan(finishing);
  return rewriteInfoPacked(pdf, plan.edit, plan.producer);
}

/** The same finish through pdf-lib alone: the path for PDFs of other shapes, and the yardstick the tests hold the fast path to. */
export async function finishPdfWithPdfLib(pdf: Buffer, finishing: Finishing = {}): Promise<Buffer> {
  return editWithPdfLib(pdf, finalMetadata(finishing), imprintSoftwareName(), finishing.date);
}

function finalMetadata(finishing: Finishing): DocumentMetadata {
  const fromTemplate = parseDocumentMetadata(finishing.templateMetadata, "template's metadata", 'RENDER_FAILED');
  return mergeMetadata(fromTemplate, finishing.metadata);
}

/** Chromium's own producer ("Skia/PDF m156") stays in brackets: which engine drew the pages. */
const producerOf = (software: string): ProducerOf => (engine) => (engine && !engine.startsWith('Imprint') ? `${software} (${engine})` : software);

async function editWithPdfLib(pdf: Buffer, metadata: DocumentMetadata, software: string, date: Date | undefined): Promise<Buffer> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  doc.setProducer(producerOf(software)(doc.getProducer()));
  doc.setCreator(metadata.creator ?? software);
  // A viewer then shows the title, not the file name, in its title bar.
  if (metadata.title !== undefined) doc.setTitle(metadata.title, { showInWindowTitleBar: true });
  if (metadata.author !== undefined) doc.setAuthor(metadata.author);
  if (metadata.subject !== undefined) doc.setSubject(metadata.subject);
  // pdf-lib joins a list with spaces, which splits "order number" in two: commas, as most tools write.
  if (metadata.keywords !== undefined) doc.setKeywords([metadata.keywords.join(', ')]);
  if (metadata.language !== undefined) doc.setLanguage(metadata.language);
  if (date) {
    doc.setCreationDate(date);
    doc.setModificationDate(date);
  }
  // Without object streams: the file keeps Chromium's PDF 1.4 form, which every reader opens.
  return savePlain(doc);
}
