/**
 * A service's temp folder (its TMPDIR) as the spool's tests watch it: the spool makes a private
 * folder `imprint-spool-XXXXXX` in it for each print past IMPRINT_SPOOL_FROM
 * (src/core/spool/spool-chunks.ts) and removes it once the PDF is delivered.
 *
 * What was spooled is seen, not trusted: an inotify watch (fs.watch) records the name of every
 * spool folder made, however briefly it lived. What is left is read from the folder, waited
 * for with a deadline: the folder is removed when the answer's connection closes, a moment
 * after the client has the last byte.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const SPOOL_PREFIX = 'imprint-spool-';

/** How long a delivered spool may take to go: the close, then a recursive remove. */
const REMOVAL_DEADLINE_MS = 5_000;
const LOOK_EVERY_MS = 25;

export interface SpoolFolder {
  readonly dir: string;
  /** The spool folders in it now. */
  present(): string[];
  /** The spool folders made since the last call (or since the watch began), and forgets them. */
  takeMade(): string[];
  /** Resolves once no spool folder is left; fails at the deadline naming those that are. */
  waitUntilEmpty(what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function watchSpoolFolder(dir: string): SpoolFolder {
  // A folder's making and its removal are both 'rename' events with its name (random, never
  // reused): a name is new once, so a removal read late is not taken for another folder.
  const seen = new Set<string>();
  let made: string[] = [];
  const watcher = fs.watch(dir, (_event, name) => {
    if (!name?.startsWith(SPOOL_PREFIX) || seen.has(name)) return;
    seen.add(name);
    made.push(name);
  });
  const present = () => fs.readdirSync(dir).filter((name) => name.startsWith(SPOOL_PREFIX));
  return {
    dir,
    present,
    takeMade() {
      const names = made;
      made = [];
      return names;
    },
    async waitUntilEmpty(what, timeoutMs = REMOVAL_DEADLINE_MS) {
      // One turn of the event loop first: the watch's events already queued are read before the caller takes them.
      await new Promise(setImmediate);
      const deadline = Date.now() + timeoutMs;
      for (let left = present(); left.length > 0; left = present()) {
        if (Date.now() > deadline) throw new Error(`${what}: ${left.join(', ')} still in ${dir} after ${timeoutMs} ms`);
        await sleep(LOOK_EVERY_MS);
      }
    },
    close: () => watcher.close(),
  };
}
