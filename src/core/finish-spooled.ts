/**
 * A spooled print's finishing (spool/spooled-pdf.ts) when only the Info fields and, for a tagged
 * print, the packing have work, which is the default render of a big document: written as a
 * second file beside the print, which is removed once it is. Undefined when the print is of a
 * shape this path does not know: the caller then reads it whole and finishes it in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countPdfPages } from './limits/pdf-pages.js';
import { finishPdf, finishPdfPacked, type Finishing } from './pdf/finish-pdf.js';
import { renumberStructureIds } from './pdf/structure-ids.js';
import { SpooledPdf } from './spool/spooled-pdf.js';

export async function finishSpooled(print: SpooledPdf, finishing: Finishing, pack: boolean): Promise<SpooledPdf | undefined> {
  const target = path.join(path.dirname(print.file), 'finished.pdf');
  const renumbered = renumberStructureIds(await fs.promises.readFile(print.file));
  const finished = pack ? finishPdfPacked(renumbered, finishing) : await finishPdf(renumbered, finishing);
  if (!finished) return undefined;
  await fs.promises.writeFile(target, finished, { mode: 0o600, flag: 'wx' });
  await fs.promises.rm(print.file);
  return new SpooledPdf(target, finished.length, countPdfPages(finished));
}
