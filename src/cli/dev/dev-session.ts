/**
 * The templates of an `imprint dev` session: each is built and rendered once at start and
 * again after every save to a file it is built from. Builds run one at a time (two cores,
 * one browser); saves that arrive during a build are folded into one rebuild after it.
 */
import path from 'node:path';
import type { Artifact } from '../../core/artifact.js';
import { buildPreview, type Preview, type PreviewDeps } from './build-preview.js';
import { createWatcher, type FileWatch } from './watch-files.js';

export interface TemplateEntry {
  /** The file name without extension: the template's name in URLs and the page. */
  name: string;
  file: string;
  /** Counts finished previews: the page asks for the PDF of a version, so it never shows a stale one. */
  version: number;
  building: boolean;
  preview?: Preview;
  /** The last PDF that rendered: it stays on show under a later error. */
  lastPdf?: { version: number; pdf: Buffer };
  /** The last artifact that built, shown by the studio's HTML view before its PDF is printed. */
  artifact?: Artifact;
  /** Counts builds that succeeded: the studio reloads its HTML view when it grows. */
  artifactVersion: number;
}

export interface SessionEvents {
  changed(entry: TemplateEntry): void;
  /** The session cannot go on (no browser): the command ends with this error. */
  failed(error: unknown): void;
  /** A watch could not be set; the template still previews, but saves may go unnoticed. */
  watchError(error: Error): void;
}

/** Editors write a file in several steps; one rebuild after the last of them. */
const SETTLE_MS = 40;

export function createDevSession(files: string[], deps: PreviewDeps, events: SessionEvents) {
  const watcher = createWatcher(events.watchError);
  const entries: TemplateEntry[] = [];
  const state = new Map<TemplateEntry, { watch: FileWatch; timer?: NodeJS.Timeout; queued: boolean; dirty: boolean }>();
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  async function rebuild(entry: TemplateEntry) {
    const own = state.get(entry)!;
    own.queued = false;
    own.dirty = false;
    entry.building = true;
    events.changed(entry);
    const preview = await buildPreview(entry.file, deps, entry.preview?.inputs ?? [], (artifact) => {
      if (closed) return;
      entry.artifact = artifact;
      entry.artifactVersion++;
      events.changed(entry);
    });
    if (closed) return;
    entry.preview = preview;
    entry.version++;
    if (preview.pdf) entry.lastPdf = { version: entry.version, pdf: preview.pdf };
    entry.building = false;
    own.watch.set(preview.inputs, preview.trees);
    events.changed(entry);
    if (own.dirty) enqueue(entry);
  }

  function enqueue(entry: TemplateEntry) {
    const own = state.get(entry)!;
    if (own.queued) return;
    if (entry.building) {
      own.dirty = true; // rebuilt right after the build under way
      return;
    }
    own.queued = true;
    queue = queue.then(() => (closed ? undefined : rebuild(entry))).catch((error: unknown) => {
      // After close nobody listens: the session was stopped, and its end is already being handled.
      if (closed) return;
      closed = true;
      events.failed(error);
    });
  }

  function add(file: string): TemplateEntry {
    const base = path.basename(file).replace(/\.[jt]sx$/, '');
    // Two templates of one name in different folders: the second is told apart by its folder.
    const name = entries.some((entry) => entry.name === base) ? `${path.basename(path.dirname(file))}-${base}` : base;
    const entry: TemplateEntry = { name, file, version: 0, building: false, artifactVersion: 0 };
    const own = {
      queued: false,
      dirty: false,
      timer: undefined as NodeJS.Timeout | undefined,
      watch: watcher.watch(() => {
        clearTimeout(own.timer);
        own.timer = setTimeout(() => enqueue(entry), SETTLE_MS);
      }),
    };
    own.watch.set([file]);
    state.set(entry, own);
    entries.push(entry);
    return entry;
  }
  for (const file of files) add(file);

  return {
    entries,
    find: (name: string) => entries.find((entry) => entry.name === name),
    /** A template file that appeared while the session runs: listed, built and watched like the others. */
    added(file: string): TemplateEntry | undefined {
      const resolved = path.resolve(file);
      if (closed || entries.some((entry) => entry.file === resolved)) return undefined;
      const entry = add(resolved);
      events.changed(entry);
      enqueue(entry);
      return entry;
    },
    /** Builds every template once; resolves when all have a first preview. */
    start(): Promise<void> {
      for (const entry of entries) enqueue(entry);
      return queue;
    },
    close() {
      closed = true;
      for (const own of state.values()) clearTimeout(own.timer);
      watcher.close();
    },
  };
}
