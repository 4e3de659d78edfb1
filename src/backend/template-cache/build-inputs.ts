/**
 * Everything a local template's bundle and props schema were made from, as the cache checks it
 * next time: the modules esbuild bundled (its metafile's inputs: the template, every file it
 * imports, its CSS, fonts and images, the packages' files), the files PostCSS read (configs,
 * the sources Tailwind scanned), the files TypeScript read for the props type (a type-only
 * import is not bundled), the package.json of every package those come from (its version), the
 * static folder's files and names, and the files whose appearance would change the build (a
 * PostCSS or Tailwind config, a tsconfig, a package.json nearer the template).
 */
import path from 'node:path';
import { locateTemplate } from '../../core/bundle/find-project.js';
import { CSS_CONFIG_NAMES } from '../../core/bundle/config-stamp.js';
import { fileState, listingState, type FileState, type ListingState } from './input-state.js';

export interface BuildInputs {
  files: FileState[];
  listings: ListingState[];
}

/** Config files looked for in the project folder: PostCSS's and Tailwind's (config-stamp.ts), TypeScript's and esbuild's tsconfig. */
const PROJECT_PROBES = [...CSS_CONFIG_NAMES, 'tsconfig.json', 'jsconfig.json'];

/** `…/node_modules/name/…` or `…/node_modules/@scope/name/…`: that package's package.json (its version). */
export function packageManifestOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length - 1) return undefined;
  const name = parts[at + 1].startsWith('@') ? 2 : 1;
  if (at + name >= parts.length - 1) return undefined;
  return [...parts.slice(0, at + 1 + name), 'package.json'].join(path.sep);
}

/** The folders from the template's up to `top`, inclusive. */
function foldersUpTo(from: string, top: string): string[] {
  const folders = [from];
  for (let dir = from; dir !== top && path.dirname(dir) !== dir; ) folders.push((dir = path.dirname(dir)));
  return folders;
}

export function buildInputs(templateFile: string, read: { bundled: string[]; dependencies: string[]; typed: string[] }): BuildInputs {
  const location = locateTemplate(templateFile);
  const files = new Set<string>([location.file, ...read.bundled, ...read.dependencies, ...read.typed].map((file) => path.resolve(file)));
  for (const file of [...files]) {
    const manifest = packageManifestOf(file);
    if (manifest) files.add(manifest);
  }
  for (const name of PROJECT_PROBES) files.add(path.join(location.projectDir, name));
  const folders = foldersUpTo(path.dirname(location.file), location.projectDir);
  // A package.json nearer the template would make its folder the project; a static/ nearer would be served instead.
  for (const dir of folders) files.add(path.join(dir, 'package.json'));
  const listings = folders.map((dir) => listingState(path.join(dir, 'static')));
  for (const listing of listings) for (const name of listing.names) files.add(path.join(listing.dir, name));
  return { files: [...files].sort().map(fileState), listings };
}
