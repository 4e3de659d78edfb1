/**
 * The folders Imprint makes for itself in the temp folder (TMPDIR): Chromium's profile
 * (render/launch-browser.ts) and a spooled PDF's (spool/spool-chunks.ts). A TMPDIR that is
 * missing, a file or full is the operator's to fix, not a bug of ours: the failure says what
 * could not be done, in which folder, why, and what to do, where a raw ENOENT naming a random
 * path read as an unexpected error ("This is a bug in imprint"). INTERNAL, as the service
 * answers it (500, the message in its log); the cause is kept, so a full disk is still told as
 * one (store/storage-full.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from './errors.js';

/** A new private folder `<parent>/<prefix>XXXXXX` (mkdtemp makes it 0700); `failed` and `remedy` word a failure. */
export async function makeTempFolder(parent: string, prefix: string, failed: string, remedy: string): Promise<string> {
  try {
    return await fs.promises.mkdtemp(path.join(parent, prefix));
  } catch (error) {
    throw new ImprintError('INTERNAL', `${failed}: no folder could be made in the temporary folder ${parent} (${(error as Error).message}). ${remedy}`, { cause: error });
  }
}
