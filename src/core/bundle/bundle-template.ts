/**
 * publish's first step: esbuild turns a TSX template (its CSS, images, fonts, npm
 * dependencies and tsconfig path aliases) into one browser artifact. Nothing here runs the
 * template: it is compiled for the page, where src/runtime/mount.tsx renders it.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ARTIFACT_FORMAT, type Artifact } from '../artifact.js';
import { ImprintError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { locateTemplate, type TemplateLocation } from './find-project.js';
import { reactSingletonPlugin } from './react-singleton-plugin.js';
import { runtimeEntryFile, runtimeHooksFile } from './runtime-files.js';
import { packStaticFolder } from './static-assets.js';
import { cssPipelinePlugin } from './css-pipeline-plugin.js';
import { imprintReactPlugin } from './imprint-react-plugin.js';
import { HTMLDOCS_SPECIFIER, htmldocsCompatPlugin } from './htmldocs-compat-plugin.js';
import { browserOnlyPlugin } from './browser-only-plugin.js';
import { textImportsPlugin } from './text-imports-plugin.js';
import { tildeAliasPlugin } from './tilde-alias-plugin.js';
import { sourcePositionsPlugin } from './source-positions-plugin.js';

const ASSET_LOADERS: Record<string, esbuild.Loader> = Object.fromEntries(
  ['.png', '.jpg', '.jpeg', '.gif', '.svg', '.webp', '.avif', '.woff', '.woff2', '.ttf', '.otf'].map((ext) => [ext, 'dataurl']),
);

export interface BundledTemplate {
  artifact: Artifact;
  /** The template's source text, read once for id detection (never executed). */
  source: string;
  file: string;
  /** Every file the bundle was built from (absolute paths), for `imprint dev` to watch. */
  inputs: string[];
  /** Files read while building that are not modules of the bundle: PostCSS and Tailwind configs, the sources Tailwind scanned. */
  dependencies: string[];
  /** Packages of other tools the template imports that were given Imprint's compatible versions (`@htmldocs/react`). */
  compat: string[];
}

function formatBuildFailure(failure: esbuild.BuildFailure, projectDir: string): ImprintError {
  const lines = failure.errors.map((message) => {
    const where = message.location
      ? `${path.relative(process.cwd(), path.resolve(projectDir, message.location.file))}:${message.location.line}:${message.location.column + 1}`
      : '(unknown location)';
    const code = message.location?.lineText ? `\n    ${message.location.lineText.trim()}` : '';
    return `${where}: ${message.text}${code}`;
  });
  const first = lines[0]?.split('\n')[0] ?? 'unknown error';
  return new ImprintError('BUILD_FAILED', `The template failed to build: ${first}`, { details: lines.join('\n'), cause: failure });
}

export interface BundleOptions {
  /**
   * Minify the JavaScript and CSS (default true). The one-shot build (publish, render, check)
   * always does; `imprint dev` rebuilds on every save and skips it, as minifying is a third of a
   * rebuild's time and changes nothing the page renders.
   */
  minify?: boolean;
  /**
   * Compile JSX so the page can tell where each element was written (source-positions-plugin.ts):
   * what `imprint check --a11y` and the dev studio report findings against. Off by default.
   */
  sourcePositions?: boolean;
}

function readTemplateSource(location: TemplateLocation, templateFile: string): string {
  try {
    return fs.readFileSync(location.file, 'utf8');
  } catch (error) {
    throw new ImprintError('NOT_FOUND', `Cannot read the template ${templateFile}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`, { cause: error });
  }
}

type TemplateBuildOptions = esbuild.BuildOptions & { write: false; sourcemap: 'external'; outdir: string; metafile: true };

/**
 * The one description of a template's build, shared by the one-shot build and the dev
 * session's incremental context. `compat` collects the other tools' packages the template
 * imported; the caller empties it before each build.
 */
function templateBuildOptions(location: TemplateLocation, compat: Set<string>, options: BundleOptions, dependencies: Set<string>): TemplateBuildOptions {
  const minify = options.minify ?? true;
  const root = packageRoot();
  const entry = [
    // First: the runtime's hooks (React's commits, frame demand) must exist before react-dom and the template load.
    `import ${JSON.stringify(runtimeHooksFile(root))};`,
    `import Template from ${JSON.stringify(location.file)};`,
    `import { mount } from ${JSON.stringify(runtimeEntryFile(root))};`,
    'mount(Template);',
  ].join('\n');
  return {
    stdin: { contents: entry, resolveDir: path.dirname(location.file), loader: 'tsx', sourcefile: 'imprint-entry.tsx' },
    absWorkingDir: location.projectDir,
    outdir: location.projectDir,
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    jsxDev: options.sourcePositions === true,
    minify,
    sourcemap: 'external',
    metafile: true,
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: ASSET_LOADERS,
    // Files of the static folder are requested by URL and answered from the artifact.
    external: ['/static/*'],
    plugins: [
      ...(options.sourcePositions ? [sourcePositionsPlugin(root)] : []),
      imprintReactPlugin(root),
      htmldocsCompatPlugin(root, () => compat.add(HTMLDOCS_SPECIFIER)),
      tildeAliasPlugin(location.projectDir),
      browserOnlyPlugin(),
      textImportsPlugin(),
      reactSingletonPlugin(location.projectDir, root),
      cssPipelinePlugin(location.projectDir, (files) => files.forEach((file) => dependencies.add(file))),
    ],
  };
}

/** esbuild's failure as Imprint's BUILD_FAILED; anything else is thrown as it is. */
async function runBuild<T>(build: () => Promise<T>, projectDir: string): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (error && typeof error === 'object' && 'errors' in error) throw formatBuildFailure(error as esbuild.BuildFailure, projectDir);
    throw error;
  }
}

function bundledFrom(result: esbuild.BuildResult<TemplateBuildOptions>, location: TemplateLocation, templateFile: string, source: string, compat: Set<string>, dependencies: Set<string>): BundledTemplate {
  const output = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))?.text;
  const js = output('.js');
  if (js === undefined) throw new ImprintError('BUILD_FAILED', `esbuild produced no JavaScript for ${templateFile}.`);
  const artifact: Artifact = {
    format: ARTIFACT_FORMAT,
    sourceName: path.basename(location.file),
    js,
    css: output('.css') ?? '',
    sourceMap: output('.js.map'),
    assets: packStaticFolder(location.staticDir),
  };
  const inputs = Object.keys(result.metafile?.inputs ?? {})
    .filter((input) => input !== '<stdin>')
    .map((input) => path.resolve(location.projectDir, input.replace(/^[\w-]+:/, '')));
  return { artifact, source, file: location.file, inputs, dependencies: [...dependencies], compat: [...compat] };
}

export async function bundleTemplate(templateFile: string, options: BundleOptions = {}): Promise<BundledTemplate> {
  const location = locateTemplate(templateFile);
  const source = readTemplateSource(location, templateFile);
  const compat = new Set<string>();
  const dependencies = new Set<string>();
  const result = await runBuild(() => esbuild.build(templateBuildOptions(location, compat, options, dependencies)), location.projectDir);
  return bundledFrom(result, location, templateFile, source, compat, dependencies);
}

export interface TemplateBuilder {
  /** Builds the template as it is now on disk; files unchanged since the last build are not parsed again. */
  build(): Promise<BundledTemplate>;
  /** Ends the esbuild context (its parsed files); the builder is not used after. */
  dispose(): Promise<void>;
}

/**
 * A template built again and again (`imprint dev`, a build per save): one esbuild context
 * kept between builds, whose rebuild reuses the files it parsed before, with the options of
 * the one-shot build. A template whose project changed (a package.json added above it) gets
 * a new context, as its options did.
 */
export function createTemplateBuilder(templateFile: string, options: BundleOptions = {}): TemplateBuilder {
  const compat = new Set<string>();
  const dependencies = new Set<string>();
  let current: { key: string; context: Promise<esbuild.BuildContext<TemplateBuildOptions>> } | undefined;
  let disposed = false;
  const drop = async () => {
    const context = current?.context;
    current = undefined;
    if (context) await (await context.catch(() => undefined))?.dispose();
  };
  return {
    async build() {
      if (disposed) throw new Error('This template builder was disposed.');
      const location = locateTemplate(templateFile);
      const source = readTemplateSource(location, templateFile);
      const key = location.projectDir;
      if (current?.key !== key) {
        await drop();
        current = { key, context: esbuild.context(templateBuildOptions(location, compat, options, dependencies)) };
      }
      const context = await current.context;
      compat.clear();
      dependencies.clear();
      const result = await runBuild(() => context.rebuild(), location.projectDir);
      return bundledFrom(result, location, templateFile, source, compat, dependencies);
    },
    async dispose() {
      disposed = true;
      await drop();
    },
  };
}
