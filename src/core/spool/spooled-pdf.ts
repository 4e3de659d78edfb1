/**
 * A PDF too big to hold whole in memory (issue 40: a statement of thousands of pages): a file of
 * its own, in a folder of its own under the spool folder, that the print wrote chunk by chunk
 * (spool-chunks.ts) and the finishing steps rewrite file to file. Whoever delivers it (a CLI's
 * output file or stdout, an HTTP answer, the object store) streams it from here and disposes of
 * it; a step that can only work on bytes reads it whole (wholePdf), which disposes of it too.
 *
 * Everything that carries a finished PDF carries a PdfBytes: a Buffer for the documents of
 * every day, a SpooledPdf past the spool's threshold (spool-policy.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

export class SpooledPdf {
  /**
   * `file`: the PDF, alone in its folder (removed with it). `bytes`: its size. `pages`: its
   * page count when the step that wrote it counted them (the service's page limit reads it
   * instead of the file).
   */
  constructor(
    readonly file: string,
    readonly bytes: number,
    readonly pages?: number,
  ) {}

  /** The bytes as a stream, in chunks (the file stays until dispose). */
  stream(): Readable {
    return fs.createReadStream(this.file);
  }

  /** Removes the file and its folder; one already gone is no error. */
  async dispose(): Promise<void> {
    await fs.promises.rm(path.dirname(this.file), { recursive: true, force: true });
  }
}

export type PdfBytes = Buffer | SpooledPdf;

export const isSpooled = (pdf: PdfBytes): pdf is SpooledPdf => pdf instanceof SpooledPdf;

export const pdfByteLength = (pdf: PdfBytes): number => (isSpooled(pdf) ? pdf.bytes : pdf.length);

/**
 * The PDF as one Buffer: for the steps and faces that need the bytes (a signature, PDF/A, a
 * library caller who asked for a Buffer). A spooled one is read and disposed of.
 */
export async function wholePdf(pdf: PdfBytes): Promise<Buffer> {
  if (!isSpooled(pdf)) return pdf;
  try {
    return await fs.promises.readFile(pdf.file);
  } finally {
    await pdf.dispose();
  }
}

/** The bytes, the spooled file kept (a page-number pass reads where its targets landed, and the print may still be the result). */
export const readPdfBytes = (pdf: PdfBytes): Promise<Buffer> => (isSpooled(pdf) ? fs.promises.readFile(pdf.file) : Promise.resolve(pdf));

/**
 * The spooled PDF a render's outcome carries (a print's or a result's `pdf`, a document
 * render's `result.pdf`) disposed of: for an outcome no one will deliver (it came after its
 * deadline, or the step after it failed).
 */
export async function disposeOutcome(value: unknown): Promise<void> {
  const outcome = value as { pdf?: unknown; result?: { pdf?: unknown } } | undefined;
  for (const pdf of [outcome?.pdf, outcome?.result?.pdf]) if (pdf instanceof SpooledPdf) await pdf.dispose();
}

/** Disposes of a spooled PDF (a Buffer needs nothing): for a result that is dropped on failure. */
export async function disposePdf(pdf: PdfBytes | undefined): Promise<void> {
  if (pdf && isSpooled(pdf)) await pdf.dispose();
}
