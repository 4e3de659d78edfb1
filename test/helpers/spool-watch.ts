/**
 * Whether a CLI run spooled its print, seen from outside rather than taken from the code's word
 * (e2e/spooled-output.test.ts): every spooled print is written in a folder of its own,
 * `imprint-spool-XXXXXX`, made in the temp folder (core/spool/spool-chunks.ts). So the child's
 * TMPDIR is watched (inotify) while it runs: the folders made there are counted, and any still
 * there once it has exited were left behind.
 */
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';

export const SPOOL_FOLDER_PREFIX = 'imprint-spool-';

export interface SpoolWatch<T> {
  value: T;
  /** Spool folders made in the folder while `run` ran (each spooled print makes one). */
  spooled: number;
  /** Spool folders still there afterwards. */
  left: string[];
}

export async function watchSpools<T>(dir: string, run: () => Promise<T>): Promise<SpoolWatch<T>> {
  const made = new Set<string>();
  // Made and removed, a folder is two events of one name: counted once.
  const watcher = fs.watch(dir, (_event, name) => {
    if (name?.startsWith(SPOOL_FOLDER_PREFIX)) made.add(name);
  });
  try {
    const value = await run();
    // The events of folders made while it ran were queued on the watcher's descriptor before the
    // run ended; the event loop's next poll reads every one of them, before this turn's end.
    await nextTurn();
    return { value, spooled: made.size, left: fs.readdirSync(dir).filter((name) => name.startsWith(SPOOL_FOLDER_PREFIX)) };
  } finally {
    watcher.close();
  }
}
