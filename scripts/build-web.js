// Builds the browser wing (src/web: the dev studio and the service's dashboard) into dist/web/,
// so that the libraries they are made of (React, rjsf, pdf.js, Paged.js) are devDependencies:
// the installed package carries the built files only, and nothing is loaded from a CDN.
//
// One folder for both apps, every file named by its content (studio-<hash>.js, chunk-<hash>.js,
// pdf.worker-<hash>.mjs...) so browsers may keep them for good, and manifest.json, written last
// and atomically, naming them: `entries` maps each logical name a page asks for (studio.js,
// app.css, pdf.worker.mjs...) to its file, `files` lists every file of this build. A server
// reads it (src/core/web-assets.ts) and sees the old build or the new one, whole; the files of
// the old one stay a while for pages loaded before (scripts/build-output.js).
//
// Run by scripts/build.js.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, transform } from 'esbuild';
import { removeUnwritten, writeAtomically } from './build-output.js';

/** The browsers the pages run in: pdf.js 6's oldest (Chrome 125, Safari 18; Firefox from 124 has what it needs, 128 is an ESR). */
const TARGET = ['chrome125', 'firefox128', 'safari18'];

/** What every build of the wing shares: minified, for the browser, React in its production build. */
const defaults = {
  bundle: true,
  write: false,
  platform: 'browser',
  target: TARGET,
  jsx: 'automatic',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  entryNames: '[name]-[hash]',
  define: { 'process.env.NODE_ENV': '"production"' },
};

const fingerprint = (contents) => createHash('sha256').update(contents).digest('hex').slice(0, 10);

/** Paged.js's browser build (its package exports only its module entry, so the file is found beside it). */
function pagedBrowserBuild(require) {
  let dir = path.dirname(require.resolve('pagedjs'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'paged.js');
}

/** An esbuild result's files, and each entry's script and stylesheet under its logical name (`<entry>.js`, `<entry>.css`). */
function namedOutputs(result, root) {
  const entries = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint || !output.endsWith('.js')) continue;
    const name = path.basename(output).replace(/-[A-Z0-9]+\.js$/, '');
    entries[`${name}.js`] = path.basename(output);
    if (meta.cssBundle) entries[`${name}.css`] = path.basename(meta.cssBundle);
  }
  return { entries, files: result.outputFiles.map((file) => ({ name: path.relative(root, file.path), contents: file.contents })) };
}

/**
 * The wing's files, { entries: { logicalName: fileName }, files: [{ name, contents }] }:
 * - studio.js/.css (`imprint dev`'s page) and app.js/.css (the dashboard): one build, so what
 *   both are made of (React, rjsf, pdf.js) ships once, in shared chunks;
 * - frame.js: the script of the studio's HTML view, a classic script after the template's own;
 * - paged.js: Paged.js's browser build, which lays that view out in pages;
 * - pdf.worker.mjs: pdf.js's worker, which reads a printed PDF for both apps' PDF view.
 */
export async function webFiles(root) {
  const src = path.join(root, 'src', 'web');
  const outdir = path.join(root, 'dist', 'web');
  const require = createRequire(path.join(root, 'package.json'));
  const [apps, frame] = await Promise.all([
    build({
      ...defaults,
      entryPoints: { studio: path.join(src, 'studio', 'main.tsx'), app: path.join(src, 'dashboard', 'main.tsx') },
      // pdf.js is an ES module with top-level await: the apps load as module scripts.
      format: 'esm',
      splitting: true,
      chunkNames: 'chunk-[hash]',
      absWorkingDir: root,
      outdir,
    }),
    build({ ...defaults, entryPoints: { frame: path.join(src, 'studio', 'frame.ts') }, format: 'iife', absWorkingDir: root, outdir }),
  ]);
  const built = [namedOutputs(apps, outdir), namedOutputs(frame, outdir)];
  // Minified here: the package's own paged.min.js is another build (its global is PagedModule, not Paged).
  const paged = (await transform(fs.readFileSync(pagedBrowserBuild(require), 'utf8'), { minify: true, target: 'chrome120' })).code;
  const worker = fs.readFileSync(require.resolve('pdfjs-dist/build/pdf.worker.min.mjs'));
  const copied = { 'paged.js': `paged-${fingerprint(paged)}.js`, 'pdf.worker.mjs': `pdf.worker-${fingerprint(worker)}.mjs` };
  return {
    entries: Object.assign({}, ...built.map((b) => b.entries), copied),
    files: [...built.flatMap((b) => b.files), { name: copied['paged.js'], contents: paged }, { name: copied['pdf.worker.mjs'], contents: worker }],
  };
}

/** Writes the wing into dist/web, the manifest last; `forPackage` removes every file of an earlier build at once. */
export async function buildWeb(root, { forPackage = false } = {}) {
  const out = path.join(root, 'dist', 'web');
  const { entries, files } = await webFiles(root);
  for (const file of files) writeAtomically(path.join(out, file.name), file.contents);
  const manifest = { entries, files: files.map((file) => file.name).sort() };
  writeAtomically(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  removeUnwritten(out, new Set([...manifest.files, 'manifest.json'].map((name) => path.join(out, name))), { now: forPackage });
  return manifest;
}
