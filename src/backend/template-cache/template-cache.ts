/**
 * Local templates cached by content: the bundle and the props schema of a `.tsx` are kept under
 * a hash of everything that can change them (build-inputs.ts: the template and every file it
 * imports, its CSS and static files, the PostCSS/Tailwind config, the packages' versions) and
 * Imprint's own version. A render, batch, publish or library call of a file whose inputs are
 * as recorded uses the kept build; any change to one of them builds it again; nothing else does.
 * `imprint dev` reads the same records and writes its own builds into them (build-variants.ts).
 *
 * The check is cheap: one stat of each file the previous build read, from its index record; a
 * file is read and hashed only when its stat differs. A process that renders the same file
 * again (the warm renderer, a library instance) also keeps the last few builds in memory, the
 * same Artifact object each time, so the browser pool's warm pages for it are reused as they are
 * for a published template.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACT_FORMAT, type Artifact } from '../../core/artifact.js';
import type { BundledTemplate } from '../../core/bundle/bundle-template.js';
import { imprintVersion } from '../../core/version.js';
import type { DerivedSchema, DerivedWithInputs } from '../../core/schema/derive-props-schema.js';
import { buildInputs, type BuildInputs } from './build-inputs.js';
import { BUILD_VARIANTS, otherVariants, type BuildVariant } from './build-variants.js';
import { openCacheFolder, type CacheFolder } from './cache-folder.js';
import { templateCacheDir } from './cache-settings.js';
import { checkFile, fileState, listingState, sameListing, writtenBetween, type FileState } from './input-state.js';

/** Bumped when what an entry holds, or how its key is made, changes: older entries are then misses. */
const CACHE_FORMAT = 'imprint.template-cache/2';
/** Builds kept in a process's memory (the renderer's hot templates). */
const MEMORY_SIZE = 16;

export interface PreparedTemplate {
  artifact: Artifact;
  derived: DerivedSchema;
  /** Other tools' packages given Imprint's compatible versions (publish notes them). */
  compat: string[];
  /** Every file the build depends on, as recorded (some may be absent: a config whose appearance would change it). */
  inputs: string[];
  /** The files TypeScript read for `derived`. */
  typed: string[];
  /** Where it came from: this process's memory, the cache folder, or a build just now. */
  from: 'memory' | 'disk' | 'build';
}

export interface TemplateCacheStats {
  built: number;
  reused: number;
}

/** A build made outside the cache (`imprint dev`'s kept esbuild context), to be recorded under the same key rules. */
export interface MadeBuild {
  bundled: BundledTemplate;
  typed: DerivedWithInputs;
  /** When the bundle started (Date.now()): an input written since may not be what was built, and the build is then not recorded. */
  since: number;
}

export interface TemplateCache {
  /** The file's bundle and schema, built only when something it was built from changed. */
  prepare(file: string, variant?: BuildVariant): Promise<PreparedTemplate>;
  /** The kept build when its inputs are as recorded (or an entry for their content exists); never builds. */
  lookup(file: string, variant?: BuildVariant): Promise<PreparedTemplate | undefined>;
  /** Keeps a build made elsewhere; false when an input was written while it was made (it is then not kept). */
  record(file: string, variant: BuildVariant, made: MadeBuild): Promise<boolean>;
  stats(): TemplateCacheStats;
}

interface IndexRecord {
  format: typeof CACHE_FORMAT;
  file: string;
  variant: BuildVariant;
  version: string;
  key: string;
  inputs: BuildInputs;
  /** The files TypeScript read for the props schema: a build of another variant that reuses the schema fingerprints them too. */
  typed: string[];
}

interface EntryRecord {
  format: typeof CACHE_FORMAT;
  key: string;
  artifact: Artifact;
  derived: DerivedSchema;
  compat: string[];
}

interface Kept {
  index: IndexRecord;
  entry: EntryRecord;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The hash of everything the build depends on: contents, not stats (a file touched but the same keeps its key). */
function keyOf(file: string, variant: BuildVariant, inputs: BuildInputs): string {
  const files = inputs.files.map((state) => [state.path, 'missing' in state ? null : state.sha256]);
  return sha256(JSON.stringify({ format: CACHE_FORMAT, version: imprintVersion(), file, build: BUILD_VARIANTS[variant], files, listings: inputs.listings }));
}

const isIndex = (value: unknown, file: string, variant: BuildVariant): value is IndexRecord => {
  const record = value as Partial<IndexRecord> | undefined;
  return record?.format === CACHE_FORMAT && record.file === file && record.variant === variant && record.version === imprintVersion()
    && typeof record.key === 'string' && Array.isArray(record.inputs?.files) && Array.isArray(record.inputs?.listings) && Array.isArray(record.typed);
};

const isEntry = (value: unknown, key: string): value is EntryRecord => {
  const record = value as Partial<EntryRecord> | undefined;
  const artifact = record?.artifact;
  return record?.format === CACHE_FORMAT && record.key === key && artifact?.format === ARTIFACT_FORMAT && typeof artifact.js === 'string'
    && typeof artifact.css === 'string' && typeof artifact.assets === 'object' && (record.derived?.kind === 'schema' || record.derived?.kind === 'none') && Array.isArray(record.compat);
};

/**
 * Whether what the record read is still as it was. Files touched but unchanged have their new
 * stat put in `touched`, so the record can be saved with it and the next check is a stat again.
 */
function stillCurrent(inputs: BuildInputs): { current: boolean; touched: FileState[] } {
  const touched: FileState[] = [];
  for (const recorded of inputs.files) {
    const { verdict, now } = checkFile(recorded);
    if (verdict === 'changed') return { current: false, touched };
    if (now) touched.push(now);
  }
  return { current: inputs.listings.every(sameListing), touched };
}

const withTouched = (index: IndexRecord, touched: FileState[]): IndexRecord => {
  const now = new Map(touched.map((state) => [state.path, state]));
  return { ...index, inputs: { ...index.inputs, files: index.inputs.files.map((state) => now.get(state.path) ?? state) } };
};

const prepared = (kept: Kept, from: PreparedTemplate['from']): PreparedTemplate => ({
  artifact: kept.entry.artifact,
  derived: kept.entry.derived,
  compat: kept.entry.compat,
  inputs: kept.index.inputs.files.map((state) => state.path),
  typed: kept.index.typed,
  from,
});

// esbuild and the TypeScript compiler load only when a build is needed: a render from the cache starts without them.
const loadBuilders = () => Promise.all([import('../../core/bundle/bundle-template.js'), import('../../core/schema/derive-props-schema.js')]);

export function createTemplateCache(options: { dataDir: string; maxBytes: number }): TemplateCache {
  const folder: CacheFolder = openCacheFolder(templateCacheDir(options.dataDir), options.maxBytes);
  const memory = new Map<string, Kept>();
  const stats: TemplateCacheStats = { built: 0, reused: 0 };

  // One record per file however it is named (a symlink, a relative path); a missing file is the build's to report.
  const resolve = (given: string) => (fs.existsSync(given) ? fs.realpathSync.native(path.resolve(given)) : path.resolve(given));
  const nameOf = (file: string, variant: BuildVariant) => sha256(JSON.stringify([file, variant]));

  const remember = (name: string, kept: Kept) => {
    memory.delete(name);
    if (memory.size >= MEMORY_SIZE) memory.delete(memory.keys().next().value as string);
    memory.set(name, kept);
  };

  /** The kept build when its inputs are as recorded: from memory first, then the folder. */
  async function kept(name: string, file: string, variant: BuildVariant): Promise<{ kept: Kept; from: 'memory' | 'disk' } | undefined> {
    const inMemory = memory.get(name);
    const index = inMemory?.index ?? folder.read('index', name);
    if (!isIndex(index, file, variant)) return undefined;
    const { current, touched } = stillCurrent(index.inputs);
    if (!current) return undefined;
    const refreshed = touched.length > 0 ? withTouched(index, touched) : index;
    if (touched.length > 0) await folder.write('index', name, refreshed);
    if (inMemory) {
      inMemory.index = refreshed;
      return { kept: inMemory, from: 'memory' };
    }
    const entry = folder.read('entries', index.key);
    if (!isEntry(entry, index.key)) return undefined;
    // Used now: the bound drops what was used longest ago.
    folder.touch('entries', index.key);
    folder.touch('index', name);
    return { kept: { index: refreshed, entry }, from: 'disk' };
  }

  /**
   * After a change, the files the last build read, hashed as they are now: when an entry was
   * built from exactly that content (an edit undone, a branch switched back), it is that build.
   * The same contents make the same build, so it reads the same files: the list still holds.
   */
  async function keptForContent(name: string, file: string, variant: BuildVariant): Promise<Kept | undefined> {
    const previous = memory.get(name)?.index ?? folder.read('index', name);
    if (!isIndex(previous, file, variant)) return undefined;
    const inputs = { files: previous.inputs.files.map((state) => fileState(state.path)), listings: previous.inputs.listings.map((listing) => listingState(listing.dir)) };
    const key = keyOf(file, variant, inputs);
    const entry = folder.read('entries', key);
    if (!isEntry(entry, key)) return undefined;
    const index: IndexRecord = { ...previous, key, inputs };
    await folder.write('index', name, index);
    folder.touch('entries', key);
    return { index, entry };
  }

  /** The kept build of the file, reused (counted) and held in memory; undefined when there is none for its inputs as they are. */
  async function found(name: string, file: string, variant: BuildVariant): Promise<PreparedTemplate | undefined> {
    const current = await kept(name, file, variant);
    const again = current ? undefined : await keptForContent(name, file, variant);
    const chosen = current?.kept ?? again;
    if (!chosen) return undefined;
    remember(name, chosen);
    stats.reused++;
    return prepared(chosen, current?.from ?? 'disk');
  }

  /**
   * The props schema of a current build of another variant: it is read from the template's
   * types, whatever the bundle's options, so `publish` after `imprint dev` (and the other way)
   * does not start the TypeScript compiler again. Its files are fingerprinted with the new build.
   */
  async function schemaOfOtherVariant(file: string, variant: BuildVariant): Promise<DerivedWithInputs | undefined> {
    for (const other of otherVariants(variant)) {
      const current = await kept(nameOf(file, other), file, other);
      if (current) return { derived: current.kept.entry.derived, inputs: current.kept.index.typed };
    }
    return undefined;
  }

  /**
   * The build as an index and entry, written unless an input was written while it was made:
   * then the files hashed now may not be what the build read, and keeping it under their key
   * would hand that build to their content. (A save's lag on the file's clock is a few
   * milliseconds; a build starts 20 ms after a save at the earliest.)
   */
  async function store(name: string, file: string, variant: BuildVariant, made: MadeBuild): Promise<{ kept: Kept; stored: boolean }> {
    const { bundled, typed, since } = made;
    const inputs = buildInputs(file, { bundled: bundled.inputs, dependencies: bundled.dependencies, typed: typed.inputs });
    const key = keyOf(file, variant, inputs);
    const index: IndexRecord = { format: CACHE_FORMAT, file, variant, version: imprintVersion(), key, inputs, typed: typed.inputs };
    const entry: EntryRecord = { format: CACHE_FORMAT, key, artifact: bundled.artifact, derived: typed.derived, compat: bundled.compat };
    const kept = { index, entry };
    if (writtenBetween(inputs.files, since, Date.now())) return { kept, stored: false };
    // The entry before the index that names it: a reader never finds an index whose entry is not there yet.
    await folder.write('entries', key, entry);
    await folder.write('index', name, index);
    folder.prune();
    remember(name, kept);
    return { kept, stored: true };
  }

  async function build(name: string, file: string, variant: BuildVariant): Promise<Kept> {
    const since = Date.now();
    const [{ bundleTemplate }, { derivePropsSchemaWithInputs }] = await loadBuilders();
    const reused = await schemaOfOtherVariant(file, variant);
    const bundling = bundleTemplate(file, BUILD_VARIANTS[variant]);
    // The props type is read while esbuild (its own process) bundles.
    const typed = reused ?? derivePropsSchemaWithInputs(file);
    const bundled = await bundling;
    stats.built++;
    return (await store(name, file, variant, { bundled, typed, since })).kept;
  }

  return {
    async prepare(given, variant = 'publish') {
      const file = resolve(given);
      const name = nameOf(file, variant);
      return (await found(name, file, variant)) ?? prepared(await build(name, file, variant), 'build');
    },
    async lookup(given, variant = 'publish') {
      const file = resolve(given);
      return found(nameOf(file, variant), file, variant);
    },
    async record(given, variant, made) {
      const file = resolve(given);
      return (await store(nameOf(file, variant), file, variant, made)).stored;
    },
    stats: () => ({ ...stats }),
  };
}
