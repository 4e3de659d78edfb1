/**
 * Template files that appear in the served folder while `imprint dev` runs: each is handed on
 * once it exists, so the studio lists it without a restart. The same files `dev` lists at start
 * (see io/template-files.ts): .tsx/.jsx directly in the folder, not hidden ones.
 */
import fs from 'node:fs';
import path from 'node:path';

const TEMPLATE_FILE = /^[^.].*\.(tsx|jsx)$/;

export function watchNewTemplates(dir: string, onTemplate: (file: string) => void, onError: (error: Error) => void): () => void {
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(dir, (_event, name) => {
      const base = name?.toString();
      if (!base || !TEMPLATE_FILE.test(base)) return;
      const file = path.join(dir, base);
      if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) onTemplate(file);
    });
  } catch (error) {
    onError(error as Error);
    return () => {};
  }
  watcher.on('error', onError);
  return () => watcher.close();
}
