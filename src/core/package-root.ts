/**
 * The folder of imprint's own package: a checkout of the repository, or the package npm
 * installed. The bundler needs it to find the page runtime, `imprint/react` and, when a user's
 * project has no React of its own, our React; the version comes from its package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

function isImprintPackage(dir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'imprint';
  } catch {
    return false;
  }
}

/** What Imprint's code reads of its own package.json (version, engines, repository, dependency ranges). */
export interface ImprintManifest {
  name: string;
  version: string;
  engines: { node: string };
  repository?: string | { url?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let manifest: ImprintManifest | undefined;

/** Imprint's own package.json, read once: --version, doctor's Node range, init's versions and the guides' web address all come from it. */
export function imprintManifest(): ImprintManifest {
  return (manifest ??= JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as ImprintManifest);
}

export function packageRoot(): string {
  if (cached) return cached;
  // Works from src/core (run by tsx) and from dist/ (the built CLI and library) alike.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!isImprintPackage(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`imprint is installed incompletely: no package.json of imprint above ${fileURLToPath(import.meta.url)}.`);
    dir = parent;
  }
  cached = dir;
  return dir;
}

/**
 * A file the template bundler reads (the page runtime, `imprint/react`, the htmldocs
 * components): its TypeScript source in a checkout, so an edit takes effect without a build;
 * the build's JavaScript copy (scripts/build.js) in the installed package, which ships no sources.
 */
export function bundlerInput(root: string, sourcePath: string): string {
  const source = path.join(root, 'src', sourcePath);
  if (fs.existsSync(source)) return source;
  return path.join(root, 'dist', sourcePath.replace(/\.tsx?$/, '.js'));
}

/** The types of a public entry (`imprint/einvoice`...) for an editor: its source in a checkout, the shipped declarations (dist/types) in the package. */
export function publicEntryTypes(root: string, sourcePath: string): string {
  const source = path.join(root, 'src', sourcePath);
  if (fs.existsSync(source)) return source;
  return path.join(root, 'dist', 'types', sourcePath.replace(/\.tsx?$/, '.d.ts'));
}

/**
 * A data file read at run time (the sRGB colour profile...): its source in a checkout, the
 * build's copy in dist/ (scripts/build.js RUNTIME_FILES) in the installed package, which ships
 * no sources.
 */
export function runtimeFile(root: string, sourcePath: string): string {
  const source = path.join(root, 'src', sourcePath);
  if (fs.existsSync(source)) return source;
  return path.join(root, 'dist', sourcePath);
}
