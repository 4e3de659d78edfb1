/**
 * The browser wing's built files (`imprint dev`'s studio, the service's dashboard), made by the
 * build (scripts/build-web.js) into dist/web/ of the installed package: each file named by its
 * content, and manifest.json naming the file behind each logical name a page asks for
 * (studio.js, app.css, pdf.worker.mjs...). Both servers find their files here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from './errors.js';
import { packageRoot } from './package-root.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface WebAsset {
  type: string;
  body: Buffer;
}

interface WebManifest {
  /** Logical name (studio.js, app.css, pdf.worker.mjs...) to file name. */
  entries: Record<string, string>;
  /** Every file of the build: the entries and the chunks they import. */
  files: string[];
}

export interface WebAssets {
  /** The file a logical name is built into, e.g. studio.js → studio-4F2KQ7XB.js. */
  fileName(logical: string): string;
  /** A file of this build by its name, or undefined for any other name (including paths and the manifest). */
  file(name: string): WebAsset | undefined;
}

/**
 * The files of one build, read from disk once each: a running server keeps serving the build it
 * started on (its files outlive a rebuild by minutes: scripts/build-output.js). `dir`: tests.
 */
export function webAssets(dir = path.join(packageRoot(), 'dist', 'web')): WebAssets {
  let manifest: WebManifest | undefined;
  const read = (): WebManifest => {
    if (manifest) return manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as WebManifest;
    } catch (error) {
      throw new ImprintError('INTERNAL', `The browser pages' files are missing from ${dir}: in a checkout of Imprint, run \`npm run build\`; else reinstall imprint.`, { cause: error });
    }
    return manifest;
  };
  const files = new Map<string, WebAsset>();
  return {
    fileName(logical) {
      const name = read().entries[logical];
      if (!name) throw new ImprintError('INTERNAL', `The browser build in ${dir} has no ${logical}: rebuild it (\`npm run build\`).`);
      return name;
    },
    file(name) {
      if (!read().files.includes(name)) return undefined;
      const cached = files.get(name);
      if (cached) return cached;
      const asset = { type: TYPES[path.extname(name)] ?? 'application/octet-stream', body: fs.readFileSync(path.join(dir, name)) };
      files.set(name, asset);
      return asset;
    },
  };
}

let installed: WebAssets | undefined;

/** The installed package's build, one reader per process. */
export const installedWebAssets = (): WebAssets => (installed ??= webAssets());
