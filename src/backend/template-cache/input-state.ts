/**
 * What a local template's build read, as the cache remembers it: each file's size, change time
 * and inode (the cheap check, one stat) and its content's SHA-256 (the check that decides when
 * a stat differs), or that it was missing; and each listed folder's names. A file whose stat is
 * unchanged is taken as unchanged without reading it, as git's index does; one touched but not
 * edited (a checkout, a `touch`) is read and hashed once, found the same, and does not rebuild.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type FileState =
  | { path: string; size: number; mtimeMs: number; ino: number; sha256: string }
  /** A file whose appearing would change the build (a PostCSS config, a package.json nearer the template). */
  | { path: string; missing: true };

/** A folder whose every file is part of the build (static/): a file added or removed changes it. */
export interface ListingState {
  dir: string;
  names: string[];
}

const sha256Of = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

export function fileState(file: string): FileState {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return { path: file, missing: true };
  return { path: file, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, sha256: sha256Of(file) };
}

/** The files under `dir`, as relative paths in a stable order; hidden files are skipped, as packStaticFolder skips them. */
export function listingState(dir: string): ListingState {
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        .sort()
    : [];
  return { dir, names };
}

export type Verdict =
  /** Stat and content as recorded. */
  | 'same'
  /** Content as recorded, stat not (touched): the record should take the new stat. */
  | 'touched'
  | 'changed';

export function checkFile(recorded: FileState): { verdict: Verdict; now?: FileState } {
  const stat = fs.statSync(recorded.path, { throwIfNoEntry: false });
  if ('missing' in recorded) return { verdict: stat?.isFile() ? 'changed' : 'same' };
  if (!stat?.isFile()) return { verdict: 'changed' };
  if (stat.size !== recorded.size) return { verdict: 'changed' };
  if (stat.mtimeMs === recorded.mtimeMs && stat.ino === recorded.ino) return { verdict: 'same' };
  const sha256 = sha256Of(recorded.path);
  if (sha256 !== recorded.sha256) return { verdict: 'changed' };
  return { verdict: 'touched', now: { path: recorded.path, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, sha256 } };
}

export const sameListing = (recorded: ListingState): boolean => listingState(recorded.dir).names.join('\0') === recorded.names.join('\0');

/**
 * Whether a file was written from `since` to `until` (Date.now() values): while a build read
 * it. A file's time comes from a coarser clock than Date.now() (a few milliseconds behind), so
 * the window opens that much earlier; a time in the future (a clock ahead, an archive's) is not
 * taken as a write during the build, or that file would never let its template be kept.
 */
const FILE_CLOCK_LAG_MS = 10;
export const writtenBetween = (files: FileState[], since: number, until: number): boolean =>
  files.some((state) => !('missing' in state) && state.mtimeMs >= since - FILE_CLOCK_LAG_MS && state.mtimeMs <= until);
