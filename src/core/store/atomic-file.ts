/**
 * Writes a file so that readers see either nothing or the whole file, never a prefix: the
 * bytes go to a temp file in the same folder (rename is only atomic within one file system),
 * are fsynced, and the temp file is renamed over the final name. The folder is fsynced too so
 * the rename itself survives a power cut before the database row that points at the file.
 *
 * A write can stop short: when the disk fills up mid-file, write(2) reports the bytes it did
 * write, and only the next call fails with ENOSPC. So the bytes are written in a loop until all
 * are on disk or one call fails; a prefix is never renamed into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { translateStorageFull } from './storage-full.js';

/** Temp files start with this, so a sweep can tell them from finished files. */
export const TEMP_PREFIX = '.tmp-';

/**
 * Every call is asynchronous (libuv's thread pool): the fsyncs of a PDF and its folder take
 * milliseconds of waiting on the disk, and a service that waited on its event loop held every
 * other render's browser messages and every download back meanwhile (bench/README.md, the job
 * row's profile: 4-7 ms of every job row's PDF).
 */
export async function writeFileAtomic(finalPath: string, data: Buffer): Promise<void> {
  const dir = path.dirname(finalPath);
  const tempPath = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(tempPath, 'wx', 0o600);
  } catch (error) {
    // A file system out of inodes refuses even an empty file.
    throw translateStorageFull(error, path.basename(finalPath), dir);
  }
  try {
    try {
      await writeAll(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tempPath, finalPath);
  } catch (error) {
    await fs.promises.rm(tempPath, { force: true });
    throw translateStorageFull(error, path.basename(finalPath), dir);
  }
  await fsyncDirectory(dir);
}

/** Every byte of `data` at the start of `fd`, however many calls that takes. */
async function writeAll(handle: fs.promises.FileHandle, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length; ) {
    const { bytesWritten: written } = await handle.write(data, offset, data.length - offset, offset);
    // Not expected from a regular file, but a loop that cannot advance must not spin.
    if (written <= 0) throw new Error(`Writing ${data.length} bytes stopped at ${offset}: the file system accepted none of the rest.`);
    offset += written;
  }
}

async function fsyncDirectory(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; there the rename is as durable as NTFS makes it.
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
