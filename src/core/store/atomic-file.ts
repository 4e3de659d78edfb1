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

export function writeFileAtomic(finalPath: string, data: Buffer): void {
  const dir = path.dirname(finalPath);
  const tempPath = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number;
  try {
    fd = fs.openSync(tempPath, 'wx', 0o600);
  } catch (error) {
    // A file system out of inodes refuses even an empty file.
    throw translateStorageFull(error, path.basename(finalPath), dir);
  }
  try {
    try {
      writeAll(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tempPath, finalPath);
  } catch (error) {
    fs.rmSync(tempPath, { force: true });
    throw translateStorageFull(error, path.basename(finalPath), dir);
  }
  fsyncDirectory(dir);
}

/** Every byte of `data` at the start of `fd`, however many calls that takes. */
function writeAll(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.length; ) {
    const written = fs.writeSync(fd, data, offset, data.length - offset, offset);
    // Not expected from a regular file, but a loop that cannot advance must not spin.
    if (written <= 0) throw new Error(`Writing ${data.length} bytes stopped at ${offset}: the file system accepted none of the rest.`);
    offset += written;
  }
}

function fsyncDirectory(dir: string): void {
  // Windows cannot open a folder for fsync; there the rename is as durable as NTFS makes it.
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
