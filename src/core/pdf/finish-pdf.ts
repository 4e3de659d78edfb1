/**
 * The step after the print: the PDF's Info fields, catalog language and dates. Chromium names
 * the headless browser's user agent as the Creator and the moment of printing as the dates;
 * here Creator and Producer become Imprint's, the template's and the request's metadata are
 * written, and a deterministic render gets its fixed date (document-date.ts).
 *
 * The edit rewrites the file with @cantoo/pdf-lib (the maintained fork of pdf-lib), which
 * copies every object as it is: the structure tree of a tagged PDF survives. The rewrite is
 * deterministic too (no document /ID, no clock; Chromium writes no /ID either), and loading
 * with `updateMetadata: false` keeps pdf-lib from stamping its own name and the time.
 */
import { imprintSoftwareName } from '../version.js';
import { mergeMetadata, parseDocumentMetadata, type DocumentMetadata } from './document-metadata.js';

/**
 * pdf-lib parses and writes in slices, yielding to the event loop between them, so a service
 * keeps answering while a long document is edited. Its defaults (100 and 50 objects) make
 * a 100-page tagged PDF take several times longer; a slice of this size takes a few ms.
 */
const OBJECTS_PER_TICK = 2000;

export interface Finishing {
  /** What the template's `metadata` static resolved to in the page: untrusted, read here. */
  templateMetadata?: unknown;
  /** The request's fields; each wins over the template's. */
  metadata?: DocumentMetadata;
  /** A deterministic render's date; undefined keeps Chromium's (the real time). */
  date?: Date;
}

let pdfLib: Promise<typeof import('@cantoo/pdf-lib')> | undefined;

/**
 * pdf-lib, loaded once. A render starts loading it while its page renders (about 0.13 s of
 * module loading that a cold CLI call would otherwise wait for after the print); it is loaded
 * lazily at all because a CLI call served by the warm renderer never prints a PDF itself.
 */
export function loadPdfLib(): Promise<typeof import('@cantoo/pdf-lib')> {
  pdfLib ??= import('@cantoo/pdf-lib');
  return pdfLib;
}

/** Starts loading pdf-lib now; a failure to load is reported by the finishing step that awaits the same promise. */
export function preloadPdfLib(): void {
  loadPdfLib().catch(() => undefined);
}

export async function finishPdf(pdf: Buffer, finishing: Finishing = {}): Promise<Buffer> {
  const fromTemplate = parseDocumentMetadata(finishing.templateMetadata, "template's metadata", 'RENDER_FAILED');
  const metadata = mergeMetadata(fromTemplate, finishing.metadata);
  const software = imprintSoftwareName();

  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: OBJECTS_PER_TICK });
  // Chromium's own producer ("Skia/PDF m156") stays in brackets: which engine drew the pages.
  const engine = doc.getProducer();
  doc.setProducer(engine && !engine.startsWith('Imprint') ? `${software} (${engine})` : software);
  doc.setCreator(metadata.creator ?? software);
  // A viewer then shows the title, not the file name, in its title bar.
  if (metadata.title !== undefined) doc.setTitle(metadata.title, { showInWindowTitleBar: true });
  if (metadata.author !== undefined) doc.setAuthor(metadata.author);
  if (metadata.subject !== undefined) doc.setSubject(metadata.subject);
  // pdf-lib joins a list with spaces, which splits "order number" in two: commas, as most tools write.
  if (metadata.keywords !== undefined) doc.setKeywords([metadata.keywords.join(', ')]);
  if (metadata.language !== undefined) doc.setLanguage(metadata.language);
  if (finishing.date) {
    doc.setCreationDate(finishing.date);
    doc.setModificationDate(finishing.date);
  }
  // Without object streams: the file keeps Chromium's PDF 1.4 form, which every reader opens.
  return Buffer.from(await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK }));
}
