/**
 * A spooled print's finishing (spool/spooled-pdf.ts) when only the Info fields and, for a tagged
 * print, the packing have work, which is the default render of a big document: finished file to
 * file in bounded memory (pdf/spooled/finish-file.ts) into a second file beside the print, which
 * is removed once it is. Undefined when the print is of a shape that path does not know: the
 * caller then reads it whole and finishes it in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Finishing } from './pdf/finish-pdf.js';
import { finishPdfFile } from './pdf/spooled/finish-file.js';
import { SpooledPdf } from './spool/spooled-pdf.js';

export async function finishSpooled(print: SpooledPdf, finishing: Finishing, pack: boolean): Promise<SpooledPdf | undefined> {
  const target = path.join(path.dirname(print.file), 'finished.pdf');
  const finished = await finishPdfFile(print.file, target, finishing, { pack });
  if (!finished) return undefined;
  await fs.promises.rm(print.file);
  return new SpooledPdf(target, finished.bytes, finished.pages);
}
