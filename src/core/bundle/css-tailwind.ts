/**
 * Which Tailwind a CSS file asks for, and the PostCSS plugin that serves it. The project's own
 * install always wins (its version is the one the template was written against); for v4,
 * imprint's own folder is searched next, which finds Tailwind only in a checkout (a
 * devDependency there): the package does not ship Tailwind, a project installs it (the message
 * below says how; docs/htmldocs.md and the README say so). v3 has no fallback at all: v4
 * silently ignores v3's `@tailwind base` directives, which would print an unstyled PDF.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AcceptedPlugin, Plugin as PostcssPlugin } from 'postcss';
import { ImprintError } from '../errors.js';

export type TailwindFlavor = 'v4' | 'v3';

const V4_IMPORT = /@(?:import|reference)\s+(?:url\(\s*)?["']tailwindcss(?:\/[^"']*)?["']/;
const V3_DIRECTIVE = /@tailwind\s+(?:base|components|utilities|variants|screens)\b/;
const V3_CONFIG_FILES = ['tailwind.config.js', 'tailwind.config.cjs', 'tailwind.config.mjs', 'tailwind.config.ts'];
const V4_INSTALL = 'npm install -D tailwindcss @tailwindcss/postcss';

/** The top-level PostCSS plugin names of each flavor, to spot one in a project's postcss.config. */
export const TAILWIND_PLUGIN_NAMES: Record<TailwindFlavor, string> = { v4: '@tailwindcss/postcss', v3: 'tailwindcss' };

export function tailwindFlavor(css: string): TailwindFlavor | undefined {
  if (V4_IMPORT.test(css)) return 'v4';
  if (V3_DIRECTIVE.test(css)) return 'v3';
  return undefined;
}

/** 1-based line and column of the directive, so errors point at the line that asked for Tailwind. */
export function tailwindDirectivePosition(css: string): { line: number; column: number } {
  const match = V4_IMPORT.exec(css) ?? V3_DIRECTIVE.exec(css);
  const before = css.slice(0, match?.index ?? 0).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

const requireFrom = (dir: string) => createRequire(path.join(dir, 'package.json'));

function tryResolve(require: NodeRequire, id: string): string | undefined {
  try {
    return require.resolve(id);
  } catch {
    return undefined;
  }
}

interface InstalledPackage {
  dir: string;
  version: string;
  major: number;
}

function installed(require: NodeRequire, name: string): InstalledPackage | undefined {
  const manifest = tryResolve(require, `${name}/package.json`);
  if (!manifest) return undefined;
  const version = String(JSON.parse(fs.readFileSync(manifest, 'utf8')).version ?? '0');
  return { dir: path.dirname(manifest), version, major: Number.parseInt(version, 10) };
}

async function importDefault<T>(file: string): Promise<T> {
  const module = await import(pathToFileURL(file).href);
  return (module.default?.default ?? module.default ?? module) as T;
}

type PluginCreator = (options?: unknown) => AcceptedPlugin;

export interface TailwindSetup {
  plugins: AcceptedPlugin[];
  /** Config files the plugins read, for esbuild's watch mode. */
  files: string[];
}

/**
 * The plugins that compile `flavor` for a project. `fallbackDir` is imprint's own folder.
 * Throws BUILD_FAILED naming the command that fixes a missing or mismatched install.
 */

export async function loadTailwindPlugins(flavor: TailwindFlavor, projectDir: string, fallbackDir: string): Promise<TailwindSetup> {
  return flavor === 'v4' ? tailwindV4(projectDir, fallbackDir) : tailwindV3(projectDir);
}

async function tailwindV4(projectDir: string, fallbackDir: string): Promise<TailwindSetup> {
  const project = requireFrom(projectDir);
  const projectTailwind = installed(project, 'tailwindcss');
  if (projectTailwind && projectTailwind.major < 4) {
    throw new ImprintError(
      'BUILD_FAILED',
      `This CSS uses Tailwind v4's \`@import "tailwindcss"\`, but the project at ${projectDir} gets tailwindcss ${projectTailwind.version} (${projectTailwind.dir}). ` +
        `Upgrade it (npm install -D tailwindcss@4 @tailwindcss/postcss@4) or write the v3 directives (@tailwind base; @tailwind components; @tailwind utilities;) instead.`,
    );
  }
  for (const require of [project, requireFrom(fallbackDir)]) {
    const entry = tryResolve(require, '@tailwindcss/postcss');
    if (!entry) continue;
    const create = await importDefault<PluginCreator>(entry);
    // Tailwind scans `base` for class names; its default is the working directory, which
    // is wherever the CLI was started, not the template's project. esbuild minifies after.
    const plugins: AcceptedPlugin[] = [create({ base: projectDir, optimize: false })];
    // @tailwindcss/postcss resolves `@import "tailwindcss"` from the CSS file's folder, which
    // fails when the project has no tailwindcss of its own (only imprint has it, or pnpm kept
    // it private to the plugin): point those imports at the copy the plugin itself uses.
    const fallbackTailwind = projectTailwind ? undefined : installed(createRequire(entry), 'tailwindcss');
    if (fallbackTailwind) plugins.unshift(redirectTailwindImports(fallbackTailwind.dir));
    return { plugins, files: [] };
  }
  throw new ImprintError(
    'BUILD_FAILED',
    `This CSS imports Tailwind CSS, which is not installed in the project at ${projectDir}. Install it there: ${V4_INSTALL}`,
  );
}

async function tailwindV3(projectDir: string): Promise<TailwindSetup> {
  const project = requireFrom(projectDir);
  const tailwind = installed(project, 'tailwindcss');
  const migrate = `or move to Tailwind v4: replace the @tailwind lines with @import "tailwindcss"; and run ${V4_INSTALL}`;
  if (!tailwind) {
    throw new ImprintError('BUILD_FAILED', `This CSS uses Tailwind v3's @tailwind directives, but the project at ${projectDir} has no tailwindcss. Install it there (npm install -D tailwindcss@3) ${migrate}.`);
  }
  if (tailwind.major !== 3) {
    throw new ImprintError('BUILD_FAILED', `This CSS uses Tailwind v3's @tailwind directives, which the project's tailwindcss ${tailwind.version} (${tailwind.dir}) ignores. Install v3 (npm install -D tailwindcss@3) ${migrate}.`);
  }
  const create = await importDefault<PluginCreator>(project.resolve('tailwindcss'));
  const configFile = V3_CONFIG_FILES.map((name) => path.join(projectDir, name)).find((file) => fs.existsSync(file));
  // Without a config file only an `@config` directive in the CSS configures v3 (see v3ConfigMissing).
  if (!configFile) return { plugins: [create({})], files: [] };
  return { plugins: [create(await anchoredV3Config(tailwind.dir, configFile, projectDir))], files: [configFile] };
}

/** v3 without a config scans nothing, which would print an unstyled PDF; say so instead. */
export function v3ConfigMissing(css: string, projectDir: string): ImprintError | undefined {
  if (/@config\s/.test(css) || V3_CONFIG_FILES.some((name) => fs.existsSync(path.join(projectDir, name)))) return undefined;
  return new ImprintError(
    'BUILD_FAILED',
    `Tailwind v3 needs a tailwind.config.js whose \`content\` lists the template's files, and ${projectDir} has none. Create one with \`npx tailwindcss init\` and set content: ['./**/*.tsx'].`,
  );
}

type Content = string | { raw: string } | Record<string, unknown>;

/**
 * v3 resolves relative `content` globs against the working directory unless
 * `content.relative` is set; anchor them to the project so the result does not depend on
 * where imprint was started. Without v3.3's loadConfig, v3 is given the path as is.
 */
async function anchoredV3Config(tailwindDir: string, configFile: string, projectDir: string): Promise<unknown> {
  // Tailwind requires the config: Node's module cache would hand a long-lived process (the warm
  // renderer) the config as it was first loaded, after an edit too. A new pipeline is made only
  // when the config changed (config-stamp.ts), so it is read afresh then.
  delete createRequire(configFile).cache[configFile];
  const loader = path.join(tailwindDir, 'loadConfig.js');
  if (!fs.existsSync(loader)) return { config: configFile };
  const loadConfig = await importDefault<(file: string) => Record<string, unknown>>(loader);
  const config = loadConfig(configFile);
  const anchor = (entry: Content) => {
    if (typeof entry !== 'string') return entry;
    return entry.startsWith('!') ? `!${path.resolve(projectDir, entry.slice(1))}` : path.resolve(projectDir, entry);
  };
  const content = config.content as Content[] | { files?: Content[] } | undefined;
  if (Array.isArray(content)) return { ...config, content: content.map(anchor) };
  if (content && Array.isArray(content.files)) return { ...config, content: { ...content, files: content.files.map(anchor) } };
  return config;
}

const TAILWIND_SPECIFIER = /(["'])(tailwindcss(?:\/[^"']*)?)\1/;

function redirectTailwindImports(tailwindDir: string): PostcssPlugin {
  const exportsMap = JSON.parse(fs.readFileSync(path.join(tailwindDir, 'package.json'), 'utf8')).exports ?? {};
  const cssFile = (specifier: string): string | undefined => {
    const subpath = specifier === 'tailwindcss' ? '.' : `./${specifier.slice('tailwindcss/'.length)}`;
    const target = exportsMap[subpath];
    const file = typeof target === 'string' ? target : target?.style;
    return typeof file === 'string' && file.endsWith('.css') ? path.join(tailwindDir, file) : undefined;
  };
  return {
    postcssPlugin: 'imprint-tailwind-fallback',
    Once(root) {
      root.walkAtRules(/^(import|reference)$/, (rule) => {
        rule.params = rule.params.replace(TAILWIND_SPECIFIER, (whole, _quote: string, specifier: string) => {
          const file = cssFile(specifier);
          return file ? JSON.stringify(file) : whole;
        });
      });
    },
  };
}
