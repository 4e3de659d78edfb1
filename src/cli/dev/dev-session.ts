/**
 * The templates of an `imprint dev` session: each is built and rendered once at start and
 * again after every save to a file it is built from. Builds run one at a time, and prints one
 * at a time apart from them (two cores, one browser): a save during a print is built at once,
 * and the print of a build that a later one overtook is skipped. Saves that arrive during a
 * build are folded into one rebuild after it.
 */
import path from 'node:path';
import type { Artifact } from '../../core/artifact.js';
import { createTemplateBuilder, type TemplateBuilder } from '../../core/bundle/bundle-template.js';
import type { A11yFinding } from '../../core/check/a11y/findings.js';
import { describeError } from '../../core/check/check-template.js';
import { bundlePreview, printPreview, type Preview, type PreviewDeps } from './build-preview.js';
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
  /** Grows with each build that succeeded (counted across the session): the studio reloads its HTML view when it does. */
  artifactVersion: number;
  /**
   * `imprint check --a11y`'s findings for the last preview that printed, checked after its
   * print: `checking` (with the previous findings) until they arrive. Kept under a later error, like its PDF.
   */
  a11y?: A11yState;
}

export interface A11yState {
  status: 'checking' | 'done' | 'failed';
  findings: A11yFinding[];
  /** Why the check could not run (`failed`). */
  error?: string;
  /** The props they were found with: the props file's name or "PreviewProps". */
  props: string;
}

export interface SessionEvents {
  changed(entry: TemplateEntry): void;
  /** A preview's accessibility findings arrived (or their check failed): `entry.a11y`, a moment after `changed`. */
  checked(entry: TemplateEntry): void;
  /** The session cannot go on (no browser): the command ends with this error. */
  failed(error: unknown): void;
  /** A watch could not be set; the template still previews, but saves may go unnoticed. */
  watchError(error: Error): void;
  /** A template's file was deleted: it leaves the session. */
  removed?(entry: TemplateEntry): void;
}

/**
 * Editors write a file in several steps (truncate and write, or write and rename), each
 * within a few milliseconds: one rebuild after the last of them. A step that comes later
 * still is not lost: it marks the build under way dirty, and the template is built again.
 */
const SETTLE_MS = 20;
/**
 * After a save the studio's HTML view loads the new artifact and lays it out (a few tenths of
 * a second); the background print of the same build (the props type derived again, on this
 * thread, then Chromium's print) would hold the server and the two cores meanwhile. It waits
 * this long first, and is skipped if another save came in the meantime.
 */
const PRINT_AFTER_SAVE_MS = 400;

export function createDevSession(files: string[], deps: PreviewDeps, events: SessionEvents) {
  const watcher = createWatcher(events.watchError);
  const entries: TemplateEntry[] = [];
  interface Own {
    watch: FileWatch;
    /** The template's esbuild context, kept between saves: a rebuild parses only what changed. */
    builder: TemplateBuilder;
    timer?: NodeJS.Timeout;
    queued: boolean;
    /** Saved again while its build ran: built once more right after. */
    dirty: boolean;
    bundling: boolean;
    /** Counts builds started: a print finishing after a later build began is not shown. */
    generation: number;
  }
  const state = new Map<TemplateEntry, Own>();
  let queue: Promise<void> = Promise.resolve();
  // Prints run one at a time (one browser, two cores), apart from the builds, latest first-come.
  let prints: Promise<void> = Promise.resolve();
  let closed = false;
  let artifacts = 0;

  function finish(entry: TemplateEntry, preview: Preview) {
    entry.preview = preview;
    entry.version++;
    if (preview.pdf) entry.lastPdf = { version: entry.version, pdf: preview.pdf };
    entry.building = false;
    events.changed(entry);
  }

  function fail(error: unknown) {
    // After close nobody listens: the session was stopped, and its end is already being handled.
    if (closed) return;
    closed = true;
    events.failed(error);
  }

  async function rebuild(entry: TemplateEntry) {
    const own = state.get(entry)!;
    own.queued = false;
    own.dirty = false;
    own.bundling = true;
    const generation = ++own.generation;
    const afterSave = entry.artifactVersion > 0;
    entry.building = true;
    events.changed(entry);
    const bundled = await bundlePreview(entry.file, own.builder, entry.preview?.inputs ?? []);
    own.bundling = false;
    if (closed || !state.has(entry)) return;
    own.watch.set(bundled.ok ? bundled.inputs : bundled.preview.inputs, bundled.ok ? bundled.trees : bundled.preview.trees);
    if (!bundled.ok) finish(entry, bundled.preview);
    else {
      entry.artifact = bundled.artifact;
      // Counted across the session: a template deleted and created again never repeats a version.
      entry.artifactVersion = ++artifacts;
      events.changed(entry);
      prints = prints
        .then(async () => {
          if (afterSave) await new Promise((resolve) => setTimeout(resolve, PRINT_AFTER_SAVE_MS));
          if (closed || own.generation !== generation) return; // a later build will print
          const preview = await printPreview(entry.file, bundled, deps);
          const current = () => !closed && own.generation === generation;
          if (!current()) {
            // A later build overtook it: neither the preview nor its findings (nor their failure) are shown; its check still ends before the next print.
            await preview.accessibility?.catch(() => undefined);
            return;
          }
          if (preview.accessibility) entry.a11y = { status: 'checking', findings: entry.a11y?.findings ?? [], props: preview.props };
          finish(entry, preview);
          if (!preview.accessibility) return;
          // The preview is on show; the next print waits for its findings (two cores, one browser).
          const a11y = await preview.accessibility.then(
            (findings): A11yState => ({ status: 'done', findings, props: preview.props }),
            (error: unknown): A11yState => ({ status: 'failed', findings: [], error: describeError(error), props: preview.props }),
          );
          if (current()) {
            entry.a11y = a11y;
            events.checked(entry);
          }
        })
        .catch(fail);
    }
    if (own.dirty) enqueue(entry);
  }

  function enqueue(entry: TemplateEntry) {
    const own = state.get(entry);
    if (!own || own.queued) return; // removed meanwhile, or already queued
    if (own.bundling) {
      own.dirty = true; // rebuilt right after the build under way
      return;
    }
    own.queued = true;
    queue = queue.then(() => (closed || !state.has(entry) ? undefined : rebuild(entry))).catch(fail);
  }

  function add(file: string): TemplateEntry {
    const base = path.basename(file).replace(/\.[jt]sx$/, '');
    // Two templates of one name in different folders: the second is told apart by its folder.
    const name = entries.some((entry) => entry.name === base) ? `${path.basename(path.dirname(file))}-${base}` : base;
    const entry: TemplateEntry = { name, file, version: 0, building: false, artifactVersion: 0 };
    const own: Own = {
      queued: false,
      dirty: false,
      bundling: false,
      generation: 0,
      // Unminified: a dev build is rebuilt on every save, and minifying changes nothing the page shows.
      // With source positions: the accessibility findings name the JSX line (source-positions-plugin.ts).
      builder: createTemplateBuilder(file, { minify: false, sourcePositions: true }),
      timer: undefined,
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
    /** Builds every template once; resolves when all are built (their prints follow). */
    start(): Promise<void> {
      for (const entry of entries) enqueue(entry);
      return queue;
    },
    /** A template file that was deleted: no longer built, watched or listed. */
    removed(file: string): void {
      const resolved = path.resolve(file);
      const entry = entries.find((each) => each.file === resolved);
      if (!entry || closed) return;
      const own = state.get(entry)!;
      clearTimeout(own.timer);
      own.watch.close();
      own.builder.dispose().catch(fail); // esbuild gone wrong: nothing more builds
      own.generation++; // a print under way is not shown
      state.delete(entry);
      entries.splice(entries.indexOf(entry), 1);
      events.removed?.(entry);
    },
    /** Stops watching and ends every template's esbuild context. */
    async close(): Promise<void> {
      closed = true;
      for (const own of state.values()) clearTimeout(own.timer);
      watcher.close();
      await Promise.all([...state.values()].map((own) => own.builder.dispose()));
    },
  };
}
