/**
 * Calls back when a file a template is built from changes. Folders are watched rather than
 * files: editors save by writing a new file and renaming it over the old one, which ends a
 * watch on the old file but shows in its folder as an event naming the file. One watcher per
 * folder is shared by every template with a file there. Files under node_modules are not
 * watched: a dependency changes with an install, not with a save.
 */
import fs from 'node:fs';
import path from 'node:path';

type Listener = (file: string) => void;

export interface FileWatch {
  /**
   * Replace what is watched: `files` one by one (the bundle's inputs, learnt at each build),
   * and `trees`, folders where any file counts (static/, whose files are packed whole).
   */
  set(files: Iterable<string>, trees?: Iterable<string>): void;
  close(): void;
}

const outsideNodeModules = (file: string) => !file.split(path.sep).includes('node_modules');

export function createWatcher(onError: (error: Error) => void) {
  const folders = new Map<string, { watcher: fs.FSWatcher; listeners: Set<Listener> }>();

  /** `key` is the folder, prefixed for a tree: a folder can be watched both ways. */
  function listen(key: string, listener: Listener) {
    let folder = folders.get(key);
    if (!folder) {
      const tree = key.startsWith('tree:');
      const dir = tree ? key.slice(5) : key;
      const listeners = new Set<Listener>();
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(dir, { recursive: tree }, (_event, name) => {
          const file = name ? path.join(dir, name.toString()) : dir;
          for (const each of listeners) each(tree ? key : file);
        });
      } catch (error) {
        onError(error as Error); // a folder deleted since the build: the next build sets the watch again
        return;
      }
      watcher.on('error', onError);
      folder = { watcher, listeners };
      folders.set(key, folder);
    }
    folder.listeners.add(listener);
  }

  function unlisten(key: string, listener: Listener) {
    const folder = folders.get(key);
    if (!folder) return;
    folder.listeners.delete(listener);
    if (folder.listeners.size === 0) {
      folder.watcher.close();
      folders.delete(key);
    }
  }

  return {
    watch(onChange: (file: string) => void): FileWatch {
      let files = new Set<string>();
      let keys = new Set<string>();
      const listener: Listener = (file) => {
        if (file.startsWith('tree:') || files.has(file)) onChange(file.startsWith('tree:') ? file.slice(5) : file);
      };
      return {
        set(nextFiles, trees = []) {
          files = new Set([...nextFiles].map((file) => path.resolve(file)).filter(outsideNodeModules));
          const nextKeys = new Set([...[...files].map((file) => path.dirname(file)), ...[...trees].map((dir) => `tree:${path.resolve(dir)}`)]);
          for (const key of keys) if (!nextKeys.has(key)) unlisten(key, listener);
          for (const key of nextKeys) if (!keys.has(key)) listen(key, listener);
          keys = nextKeys;
        },
        close() {
          for (const key of keys) unlisten(key, listener);
          keys = new Set();
          files = new Set();
        },
      };
    },
    close() {
      for (const folder of folders.values()) folder.watcher.close();
      folders.clear();
    },
  };
}
