// The browser assets Imprint serves (the dev studio; the dashboard adds itself here), built
// by scripts/build.js into dist/browser/<name>/ so that the libraries they are made of (pdf.js,
// rjsf, Paged.js...) are devDependencies: the installed package carries the built files only.
//
// To add a page: append { name, build } to BROWSER_ASSETS. `build(root)` returns the files,
// { fileName: contents (string | Uint8Array) }, that land in dist/browser/<name>/; the server
// reads them from there with browserAssetFile(name, file) (src/core/browser-assets.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, transform } from 'esbuild';

/** The esbuild options every browser page shares: one minified ES module build for current Chromium (from 125, pdf.js 6's oldest). */
export const browserBuildDefaults = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: ['chrome125'],
  jsx: 'automatic',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/** The output of an esbuild build with write: false, as { fileName: contents }. */
export const outputsByName = (result) => Object.fromEntries(result.outputFiles.map((file) => [path.basename(file.path), file.contents]));

/** Paged.js's browser build (its package exports only its module entry, so the file is found beside it). */
function pagedBrowserBuild(root) {
  let dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('pagedjs'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'paged.js');
}

/**
 * `imprint dev`'s studio (src/cli/dev/studio/): studio.js/.css (the page), frame.js (the preview
 * frame's script), paged.js (Paged.js's browser build, which lays the HTML view out in pages)
 * and pdf.worker.mjs (pdf.js's worker, which reads the printed PDF).
 */
async function buildStudio(root) {
  const dir = path.join(root, 'src', 'cli', 'dev', 'studio');
  const result = await build({
    ...browserBuildDefaults,
    entryPoints: { studio: path.join(dir, 'main.tsx'), frame: path.join(dir, 'frame.ts') },
    absWorkingDir: root,
    outdir: path.join(root, 'dist', 'browser', 'studio'),
  });
  const require = createRequire(path.join(root, 'package.json'));
  return {
    ...outputsByName(result),
    // Minified here: the package's own paged.min.js is another build (its global is PagedModule, not Paged).
    'paged.js': (await transform(fs.readFileSync(pagedBrowserBuild(root), 'utf8'), { minify: true, target: 'chrome120' })).code,
    'pdf.worker.mjs': fs.readFileSync(require.resolve('pdfjs-dist/build/pdf.worker.min.mjs')),
  };
}

/** Every browser page to build: the hook other pages (the dashboard) add themselves to. */
export const BROWSER_ASSETS = [{ name: 'studio', build: buildStudio }];
