/**
 * A full disk, as the file system (ENOSPC, or EDQUOT past a quota) or SQLite (SQLITE_FULL)
 * reports it. The store turns it into an ImprintError that says so, keeping the original as
 * its cause; the server answers it as 507 (src/server/http/errors.ts). A write that fails this way
 * leaves nothing behind: atomic files remove their temp file, SQLite rolls the transaction back.
 */
import { ImprintError } from '../errors.js';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

const codeOf = (error: unknown) => (error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined);

/** Whether `error`, or an error in its chain of causes, is a full disk. */
export function isStorageFull(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current !== null && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (FULL_CODES.has(codeOf(current) as string)) return true;
  }
  return false;
}

/** `what` could not be written to `where` because its disk is full (an error that is not: unchanged). */
export function translateStorageFull(error: unknown, what: string, where: string): unknown {
  // Already said in these words (an inner write translated it), or not a full disk at all.
  if (!isStorageFull(error) || error instanceof ImprintError) return error;
  return new ImprintError(
    'INTERNAL',
    `No space left to write ${what}: the disk holding ${where} is full (${String(codeOf(error))}). Nothing was written; free disk space there and try again.`,
    { cause: error },
  );
}
