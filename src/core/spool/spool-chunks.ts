/**
 * A print read in chunks (render/protocol-stream.ts) kept as a Buffer while it is small, and
 * written to a spool file (spooled-pdf.ts) once it passes the policy's threshold: the chunks
 * held so far go first, every later one is written as it comes, so the document is never whole
 * in Node's memory. Without a policy it is always a Buffer.
 *
 * The file is written in a folder of its own, made private (0700): a document is the caller's
 * data. On any failure the folder is removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeAll } from '../atomic-file.js';
import { makeTempFolder } from '../temp-folder.js';
import { SpooledPdf, type PdfBytes } from './spooled-pdf.js';
import type { SpoolPolicy } from './spool-policy.js';

/** A new private folder for one spooled file, and the file's name in it. */
export async function spoolFile(policy: SpoolPolicy, name = 'document.pdf'): Promise<string> {
  const dir = await makeTempFolder(
    policy.dir,
    'imprint-spool-',
    'A big PDF could not be spooled',
    'Set TMPDIR to a writable folder with room for the biggest documents, or raise IMPRINT_SPOOL_FROM so that documents of this size stay in memory.',
  );
  return path.join(dir, name);
}

export async function collectChunks(chunks: AsyncIterable<Buffer>, policy: SpoolPolicy | undefined): Promise<PdfBytes> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) return Buffer.concat(held, heldBytes);
    held.push(next.value);
    heldBytes += next.value.length;
    if (policy && heldBytes >= policy.fromBytes) break;
  }
  // A spool that cannot be made gives the stream up too: left open, it keeps the PDF in Chromium.
  const file = await spoolFile(policy!).catch(async (error: unknown) => {
    await iterator.return?.();
    throw error;
  });
  let bytes = 0;
  try {
    const handle = await fs.promises.open(file, 'wx', 0o600);
    try {
      const write = async (chunk: Buffer) => {
        await writeAll(handle, chunk, bytes);
        bytes += chunk.length;
      };
      for (const chunk of held.splice(0)) await write(chunk);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) await write(next.value);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // The partial file removed first: giving the stream up (its handle closed by its own
    // finally) fails too when the browser is gone, and the folder must not stay behind.
    await fs.promises.rm(path.dirname(file), { recursive: true, force: true });
    await iterator.return?.();
    throw error;
  }
  return new SpooledPdf(file, bytes);
}
