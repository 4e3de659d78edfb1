/**
 * Template artifacts on disk, named by the SHA-256 of their bytes. Content addressing makes
 * a write idempotent (two publishes of the same bundle share one file) and lets a read check
 * that the bytes are still the ones that were published.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { sha256Hex, SHA256_PATTERN } from './crypto.js';

export function createArtifacts(folder: string) {
  const pathOf = (sha256: string) => path.join(folder, sha256);

  return {
    /** Stores the bytes (once) and returns their hash. Call before writing the row that names it. */
    write(data: Buffer): string {
      const sha256 = sha256Hex(data);
      // Files are renamed into place whole, so an existing one normally holds these bytes; it is
      // still checked, so that publishing again is how a damaged artifact gets repaired.
      if (!holds(pathOf(sha256), sha256)) writeFileAtomic(pathOf(sha256), data);
      return sha256;
    },

    read(sha256: string): Buffer {
      if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) {
        throw new ImprintError('INVALID_INPUT', `Invalid artifact hash "${sha256}": expected 64 lowercase hex digits.`);
      }
      let data: Buffer;
      try {
        data = fs.readFileSync(pathOf(sha256));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        throw new ImprintError(
          'INTERNAL',
          `The template artifact ${sha256} is missing from ${folder}. Publish the template again to restore it.`,
        );
      }
      if (sha256Hex(data) !== sha256) {
        throw new ImprintError(
          'INTERNAL',
          `The template artifact ${pathOf(sha256)} is damaged (its bytes no longer match their hash). Publish the template again to restore it.`,
        );
      }
      return data;
    },
  };
}

function holds(file: string, sha256: string): boolean {
  try {
    return sha256Hex(fs.readFileSync(file)) === sha256;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
