/** Positional reads that fill what they were asked for (a read(2) may return fewer bytes). */
import type fs from 'node:fs';
import { ImprintError } from '../../errors.js';

/** `into` filled from `position` in the file, however many reads that takes. */
export async function readAt(handle: fs.promises.FileHandle, into: Buffer, position: number): Promise<void> {
  for (let filled = 0; filled < into.length; ) {
    const { bytesRead } = await handle.read(into, filled, into.length - filled, position + filled);
    // The file was measured when it was opened: one that ends sooner was changed meanwhile.
    if (bytesRead === 0) throw new ImprintError('RENDER_FAILED', `The spooled PDF ended at ${position + filled} bytes, before the ${position + into.length} it had when it was opened: it changed while it was being finished. Render the document again.`);
    filled += bytesRead;
  }
}
