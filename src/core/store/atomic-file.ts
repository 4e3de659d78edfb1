/**
 * Writes a file so that readers see either nothing or the whole file, never a prefix: the
 * bytes go to a temp file in the same folder (rename is only atomic within one file system),
 * are fsynced, and the temp file is renamed over the final name. The folder is fsynced too so
 * the rename itself survives a power cut before the database row that points at the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temp files start with this, so a sweep can tell them from finished files. */
export const TEMP_PREFIX = '.tmp-';

export function writeFileAtomic(finalPath: string, data: Buffer): void {
  const dir = path.dirname(finalPath);
  const tempPath = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = fs.openSync(tempPath, 'wx', 0o600);
  try {
    try {
      fs.writeSync(fd, data, 0, data.length, 0);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tempPath, finalPath);
  } catch (error) {
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
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
