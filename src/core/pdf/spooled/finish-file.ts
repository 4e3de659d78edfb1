/**
 * The default render's finishing (finish-print.ts) of a print Chromium spooled to a file, from
 * that file to another in bounded memory, for documents of thousands of pages (issue 40): the
 * structure ids renumbered (structure-ids.ts), the Info and catalog rewritten (info-rewrite.ts)
 * and, for a tagged print, the objects packed into object streams (object-streams.ts). The same
 * bytes as the in-memory path, byte for byte:
 *
 * - `pack: true`: finishPdfPacked(renumberStructureIds(file), finishing);
 * - `pack: false`: finishPdf(renumberStructureIds(file), finishing) on Chromium's shape
 *   (rewriteInfo's output).
 *
 * The file is never read whole: a first pass counts its structure ids a chunk at a time
 * (structure-id-scan.ts); then its object table is read from its end (opened-pdf.ts) and its
 * objects are copied in offset order with positional reads, streams a chunk at a time, every
 * byte renumbered as it is read (renumbered-reader.ts), the output gathered a buffer at a time
 * (buffered-writer.ts). What is held beyond those buffers grows with the object count (the
 * table, the ids, one object stream's 200 bodies), never with the pages' bytes.
 *
 * A file of another shape than Chromium's (classic-pdf.ts's Shape) answers undefined and leaves
 * no target (the output goes to a temp file renamed into place once whole): the caller reads it
 * into memory and finishes it there. Asynchronous throughout: a service's event loop turns
 * between reads while a 50 MB file is finished.
 */
import fs from 'node:fs';
import { replaceFileAtomically } from '../../atomic-file.js';
import { ImprintError } from '../../errors.js';
import { objectDictionaryAt, readDictionary, Shape, trailerObject, unexpected, type Entry } from '../classic-pdf.js';
import { finishPlan, type Finishing } from '../finish-pdf.js';
import { infoObjects } from '../info-rewrite.js';
import { BufferedWriter } from './buffered-writer.js';
import { writeClassicFile } from './classic-file.js';
import { writePackedFile } from './packed-file.js';
import { RenumberedReader } from './renumbered-reader.js';
import { objectText, openPdf, type OpenedPdf } from './opened-pdf.js';

/** A read's size: a stream is copied this much at a time, and the objects after one are read with it. */
export const FINISH_CHUNK_BYTES = 1 << 20;

export interface SpooledFinishOptions {
  /** A tagged print's finish (its objects packed into object streams); false: an untagged one's. */
  pack: boolean;
  /** The read size (FINISH_CHUNK_BYTES by default); the tests read a few bytes at a time, so ids and objects straddle the reads. */
  chunkBytes?: number;
}

/** What the caller needs to carry the finished file on (spool/spooled-pdf.ts's SpooledPdf takes both). */
export interface FinishedFile {
  /** The finished file's length. */
  bytes: number;
  /** Its page objects (`/Type /Page`), for the service's page limit without reading the file again. */
  pages: number;
}

export async function finishPdfFile(source: string, target: string, finishing: Finishing, options: SpooledFinishOptions): Promise<FinishedFile | undefined> {
  const chunkBytes = options.chunkBytes ?? FINISH_CHUNK_BYTES;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) throw new ImprintError('INVALID_INPUT', `The spooled finish's chunkBytes must be a whole number of bytes, at least 1, not ${chunkBytes}.`);
  // A template's metadata of the wrong form fails here, before the file is opened, as it does in memory.
  const plan = finishPlan(finishing);
  const handle = await fs.promises.open(source, 'r');
  try {
    const pdf = await openPdf(await RenumberedReader.open(handle, chunkBytes));
    const replaced = infoObjects(pdf.table, await trailerDictionaries(pdf, ['Info', 'Root']), plan.edit, plan.producer);
    const finished: FinishedFile = { bytes: 0, pages: 0 };
    // Private, as the print it comes from (spool/spool-chunks.ts): a document is the caller's data.
    const mode = 0o600;
    await replaceFileAtomically(
      target,
      async (output) => {
        const writer = new BufferedWriter(output);
        finished.pages = await (options.pack ? writePackedFile : writeClassicFile)(pdf, replaced, writer);
        await writer.flush();
        finished.bytes = writer.position;
      },
      { mode },
    );
    return finished;
  } catch (error) {
    if (error instanceof Shape) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
}

/** Reads the dictionaries of the trailer's `keys` objects off the disk for infoObjects, which reads no others. */
async function trailerDictionaries(pdf: OpenedPdf, keys: string[]): Promise<(n: number) => Entry[]> {
  const texts = new Map<number, string>();
  for (const key of keys) {
    const n = trailerObject(pdf.table, key);
    texts.set(n, await objectText(pdf, n));
  }
  return (n) => {
    const text = texts.get(n) ?? unexpected(`object ${n} not read`);
    return readDictionary(text, objectDictionaryAt(text, n, 0)).entries;
  };
}
