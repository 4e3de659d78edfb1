/**
 * Template files that appear in (or leave) the served folder while `imprint dev` runs: each is
 * handed on once it exists, or once it is gone, so the studio lists it without a restart. The same files `dev` lists at start
 * (see io/template-files.ts): .tsx/.jsx directly in the folder, not hidden ones.
 */
import fs from 'node:fs';
import path from 'node:path';

const TEMPLATE_FILE = /^[^.].*\.(tsx|jsx)$/;
/** Some editors save by moving the old file away first: a file is gone only if it stays gone. */
const GONE_AFTER_MS = 300;

export function watchNewTemplates(dir: string, onTemplate: (file: string) => void, onGone: (file: string) => void, onError: (error: Error) => void): () => void {
  let watcher: fs.FSWatcher;
  let closed = false;
  try {
    watcher = fs.watch(dir, (_event, name) => {
      const base = name?.toString();
      if (!base || !TEMPLATE_FILE.test(base)) return;
      const file = path.join(dir, base);
      const exists = () => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
      if (exists()) onTemplate(file);
      else setTimeout(() => !closed && !exists() && onGone(file), GONE_AFTER_MS);
    });
  } catch (error) {
    onError(error as Error);
    return () => {};
  }
  watcher.on('error', onError);
  return () => {
    closed = true;
    watcher.close();
  };
}
