// How the build writes dist/ while other processes may be reading it (tests, a dev server, a
// service): each file through a temporary name, and the files of earlier builds removed only
// once nothing can still be using them. Shared by scripts/build.js and scripts/build-web.js.
import fs from 'node:fs';
import path from 'node:path';

/** How long a file no build wrote any more stays: a process started on the earlier build may still load it. */
const STALE_MS = 10 * 60_000;

/**
 * Writes a file through a temporary name, so a reader sees the old file or the new one, never
 * half. A file whose bytes are unchanged is left alone: the CLI's build identity is its entry
 * file's mtime (cli-runtime.ts), and a rebuild of the same sources (npm pack's, during a test
 * run) must not make running warm renderers look like another build's.
 */
export function writeAtomically(file, contents) {
  const current = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
  if (current && Buffer.compare(current, Buffer.from(contents)) === 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

/** Removes the files of `dir` this build did not write: all of them for the package (`now`), else those unused for a while. */
export function removeUnwritten(dir, written, { now }) {
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const file = path.join(dir, name);
    if (!written.has(file) && (now || Date.now() - fs.statSync(file).mtimeMs > STALE_MS)) fs.rmSync(file, { force: true });
  }
}
