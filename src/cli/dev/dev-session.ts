/**
 * The templates of an `imprint dev` session: each is built and rendered once at start and
 * again after every save to a file it is built from. Builds run one at a time, and prints one
 * at a time apart from them (two cores, one browser): a save during a print is built at once,
 * and the print of a build that a later one overtook is skipped. Saves that arrive during a
 * build are folded into one rebuild after it.
 *
 * The session shares the local template cache with render and publish (backend/template-cache):
 * a template whose files are as the last render, publish or dev session left them previews
 * from the kept build (no bundle, no props type to derive); what a save builds is kept there
 * as dev's build once printed, and once the saves pause (or the session stops) the publish
 * build of the same files is made too, so `imprint render` or `publish` of what the author
 * saved does not bundle it again.
 */
import path from 'node:path';
import type { Artifact } from '../../core/artifact.js';
import { createTemplateBuilder, type TemplateBuilder } from '../../core/bundle/bundle-template.js';
import type { A11yFinding } from '../../core/check/a11y/findings.js';
import { describeError } from '../../core/check/check-template.js';
import { derivePropsSchemaWithInputs, type DerivedSchema, type DerivedWithInputs } from '../../core/schema/derive-props-schema.js';
import { BUILD_VARIANTS, type BuildVariant } from '../../backend/template-cache/build-variants.js';
import type { TemplateCache } from '../../backend/template-cache/template-cache.js';
import { bundlePreview, printPreview, type BundledPreview, type Preview, type PreviewDeps } from './build-preview.js';
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
  /** A build could not be kept in the template cache (or its publish build made): the preview stands; a render will bundle it. */
  cacheError(entry: TemplateEntry, error: unknown): void;
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
/**
 * The publish build of a saved state (a one-shot minified bundle, a few tenths of a second of
 * esbuild) is made once the saves pause this long after its preview, not after every save:
 * while the author edits, each would be overtaken by the next. Stopping the session makes the
 * ones still due.
 */
const PUBLISH_BUILD_AFTER_MS = 2000;
/** The first preview may come from any kept build; a save's from dev's own (an edit undone, a file touched). */
const FIRST_PREVIEW_VARIANTS: BuildVariant[] = ['dev', 'publish'];
const SAVE_VARIANTS: BuildVariant[] = ['dev'];

export function createDevSession(files: string[], deps: PreviewDeps, cache: TemplateCache, events: SessionEvents) {
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
    /** The last preview's files have no publish build in the cache yet: it is made when `publishTimer` fires, or at close. */
    publishDue: boolean;
    publishTimer?: NodeJS.Timeout;
  }
  const state = new Map<TemplateEntry, Own>();
  /** The props schema of each entry's artifact (by its artifactVersion): from the cache with it, else derived when first asked. */
  const schemas = new WeakMap<TemplateEntry, { artifactVersion: number; typed: DerivedWithInputs }>();
  /** Cache writes under way: the session's close waits for them. */
  const keeping = new Set<Promise<void>>();
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

  function schemaOf(entry: TemplateEntry): DerivedWithInputs {
    const known = schemas.get(entry);
    if (known?.artifactVersion === entry.artifactVersion) return known.typed;
    const typed = derivePropsSchemaWithInputs(entry.file);
    schemas.set(entry, { artifactVersion: entry.artifactVersion, typed });
    return typed;
  }

  function track(work: Promise<void>) {
    keeping.add(work);
    void work.finally(() => keeping.delete(work));
  }

  async function drained() {
    while (keeping.size > 0) await Promise.all(keeping);
  }

  /** The publish build of the entry's files, unless the cache has it already; made on the prints' turn (one heavy job at a time). */
  function makePublishBuild(entry: TemplateEntry, own: Own): Promise<void> {
    clearTimeout(own.publishTimer);
    if (!own.publishDue || !state.has(entry)) return Promise.resolve();
    own.publishDue = false;
    const work = cache.prepare(entry.file, 'publish').then(
      () => undefined,
      (error: unknown) => events.cacheError(entry, error),
    );
    track(work);
    return work;
  }

  function publishBuildDue(entry: TemplateEntry, own: Own) {
    own.publishDue = true;
    clearTimeout(own.publishTimer);
    if (closed) return; // close makes it
    own.publishTimer = setTimeout(() => {
      prints = prints.then(() => makePublishBuild(entry, own));
    }, PUBLISH_BUILD_AFTER_MS);
  }

  /** After a preview printed: what the esbuild context built is kept as dev's build, and the publish build becomes due. */
  function keepBuild(entry: TemplateEntry, own: Own, build: Extract<BundledPreview, { ok: true }>['build']) {
    if (build.from === 'cache') {
      // Dev's build from the cache: an earlier session may have stopped before making the publish build.
      if (build.variant !== 'publish') publishBuildDue(entry, own);
      return;
    }
    let typed: DerivedWithInputs;
    try {
      typed = schemaOf(entry);
    } catch (error) {
      events.cacheError(entry, error);
      return;
    }
    track(
      cache.record(entry.file, 'dev', { bundled: build.bundled, typed, since: build.since }).then(
        (kept) => {
          // Not kept (a file was saved while it built): the build of that save is kept instead.
          if (kept && state.has(entry)) publishBuildDue(entry, own);
        },
        (error: unknown) => events.cacheError(entry, error),
      ),
    );
  }

  async function rebuild(entry: TemplateEntry) {
    const own = state.get(entry)!;
    own.queued = false;
    own.dirty = false;
    own.bundling = true;
    // The state the publish build was due for is gone with this save.
    own.publishDue = false;
    clearTimeout(own.publishTimer);
    const generation = ++own.generation;
    const afterSave = entry.artifactVersion > 0;
    entry.building = true;
    events.changed(entry);
    const bundled = await bundlePreview(entry.file, own.builder, cache, afterSave ? SAVE_VARIANTS : FIRST_PREVIEW_VARIANTS, entry.preview?.inputs ?? []);
    own.bundling = false;
    if (closed || !state.has(entry)) return;
    own.watch.set(bundled.ok ? bundled.inputs : bundled.preview.inputs, bundled.ok ? bundled.trees : bundled.preview.trees);
    if (!bundled.ok) finish(entry, bundled.preview);
    else {
      entry.artifact = bundled.artifact;
      // Counted across the session: a template deleted and created again never repeats a version.
      entry.artifactVersion = ++artifacts;
      if (bundled.build.from === 'cache') schemas.set(entry, { artifactVersion: entry.artifactVersion, typed: { derived: bundled.build.derived, inputs: bundled.build.typed } });
      events.changed(entry);
      prints = prints
        .then(async () => {
          if (afterSave) await new Promise((resolve) => setTimeout(resolve, PRINT_AFTER_SAVE_MS));
          if (closed || own.generation !== generation) return; // a later build will print
          const preview = await printPreview(entry.file, bundled, deps, () => schemaOf(entry).derived);
          const current = () => !closed && own.generation === generation;
          if (!current()) {
            // A later build overtook it: neither the preview nor its findings (nor their failure) are shown; its check still ends before the next print.
            await preview.accessibility?.catch(() => undefined);
            return;
          }
          if (preview.accessibility) entry.a11y = { status: 'checking', findings: entry.a11y?.findings ?? [], props: preview.props };
          finish(entry, preview);
          keepBuild(entry, own, bundled.build);
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
      publishDue: false,
      builder: createTemplateBuilder(file, BUILD_VARIANTS.dev),
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
    /** The props schema of the template's last build (the studio's form and props check). */
    schemaOf: (entry: TemplateEntry): DerivedSchema => schemaOf(entry).derived,
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
      clearTimeout(own.publishTimer);
      own.watch.close();
      own.builder.dispose().catch(fail); // esbuild gone wrong: nothing more builds
      own.generation++; // a print under way is not shown
      state.delete(entry);
      entries.splice(entries.indexOf(entry), 1);
      events.removed?.(entry);
    },
    /**
     * Stops watching, finishes the cache's writes (a build kept, the publish builds still due:
     * the author's last saves are what a render will ask for next), and ends every template's esbuild context.
     */
    async close(): Promise<void> {
      closed = true;
      for (const own of state.values()) {
        clearTimeout(own.timer);
        clearTimeout(own.publishTimer);
      }
      watcher.close();
      // A kept build makes its publish build due; one made on the prints' turn may have started meanwhile.
      await drained();
      await Promise.all([...state].map(([entry, own]) => makePublishBuild(entry, own)));
      await drained();
      await Promise.all([...state.values()].map((own) => own.builder.dispose()));
    },
  };
}
