/**
 * The local template cache on disk, in the data folder's `template-cache/`:
 *
 *   index/<hash of the file's path and build options>.json   what the last build of that file read (input-state.ts) and its key
 *   entries/<key>.json                                       the bundle, the props schema and the compat notes built under that key
 *
 * The key is a hash of everything that can change the build (template-cache.ts), so an edit
 * undone finds its old entry again. Every file is written whole (core/atomic-file.ts): two
 * renders of one file at once write the same bytes, and a reader sees one or the other. A file
 * that cannot be read back as written (cut short by a crash, edited by hand, of another format)
 * is a miss: the template is built again and the file replaced. The folder is bounded: after a
 * write, the files used longest ago go first until it is within its size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-file.js';

export const CACHE_FOLDER_NAME = 'template-cache';

export interface CacheFolder {
  readonly dir: string;
  /** The parsed JSON of a file, or undefined when it is missing or unreadable (a miss). */
  read(kind: 'index' | 'entries', name: string): unknown;
  write(kind: 'index' | 'entries', name: string, value: unknown): Promise<void>;
  /** Marks an entry used now, so the bound drops it last. */
  touch(kind: 'index' | 'entries', name: string): void;
  /** Drops the files used longest ago until the folder holds at most `maxBytes`. */
  prune(): void;
}

export function openCacheFolder(dir: string, maxBytes: number): CacheFolder {
  const fileOf = (kind: string, name: string) => path.join(dir, kind, `${name}.json`);
  return {
    dir,
    read(kind, name) {
      let text: string;
      try {
        text = fs.readFileSync(fileOf(kind, name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        return JSON.parse(text);
      } catch {
        return undefined; // cut short or edited: rebuilt and replaced, never fatal
      }
    },
    async write(kind, name, value) {
      const bytes = Buffer.from(JSON.stringify(value));
      // An entry larger than the whole bound would only push everything else out, then itself.
      if (bytes.length > maxBytes) return;
      // The folders above the data folder are made as usual (a recursive mkdir would make them
      // 0700 too); the data folder, the cache and its kinds are private.
      fs.mkdirSync(path.dirname(path.dirname(dir)), { recursive: true });
      fs.mkdirSync(path.join(dir, kind), { recursive: true, mode: 0o700 });
      await writeFileAtomic(fileOf(kind, name), bytes, { mode: 0o600 });
    },
    touch(kind, name) {
      const now = new Date();
      try {
        fs.utimesSync(fileOf(kind, name), now, now);
      } catch (error) {
        // Pruned by another process meanwhile: this one holds what it read.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    prune() {
      const files = (['index', 'entries'] as const).flatMap((kind) => listFiles(path.join(dir, kind)));
      let total = files.reduce((sum, file) => sum + file.size, 0);
      for (const file of files.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
        if (total <= maxBytes) break;
        fs.rmSync(file.path, { force: true });
        total -= file.size;
      }
    },
  };
}

function listFiles(dir: string): { path: string; size: number; mtimeMs: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    // Gone meanwhile (another process pruned it), or a temp file of a write under way: not counted.
    const stat = name.startsWith('.') ? undefined : fs.statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? [{ path: file, size: stat.size, mtimeMs: stat.mtimeMs }] : [];
  });
}
