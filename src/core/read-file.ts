/**
 * A file's bytes for an input named by its path (the CLI's `--sign <file>`, the library's
 * `sign.p12`), its failure said the same way from every face: no such file is NOT_FOUND,
 * anything else unreadable INVALID_INPUT, naming what the file was for.
 */
import fs from 'node:fs';
import { ImprintError } from './errors.js';

export function readInputFile(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new ImprintError(code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT', `Cannot read the ${what} file ${file}: ${reason}.`, { cause: error });
  }
}
