/**
 * The studio's front-end (src/cli/dev/studio/): bundled by esbuild when `imprint dev` starts,
 * once per process, in memory, so the page always matches the CLI that serves it. Paged.js,
 * which lays the HTML view out in pages, and pdf.js's worker, which reads the printed PDF, are
 * served as their own published browser builds.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { packageRoot } from '../../core/package-root.js';

export interface StudioAssets {
  /** By file name under /studio/: studio.js, studio.css, frame.js, paged.js. */
  files: Map<string, { type: string; body: string }>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** Paged.js's browser build (its package exports only its module entry, so the file is found beside it). */
function pagedBrowserBuild(root: string): string {
  let dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('pagedjs'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'paged.js');
}

async function bundleStudio(): Promise<StudioAssets> {
  const root = packageRoot();
  const dir = path.join(root, 'src', 'cli', 'dev', 'studio');
  const result = await esbuild.build({
    entryPoints: { studio: path.join(dir, 'main.tsx'), frame: path.join(dir, 'frame.ts') },
    absWorkingDir: root,
    outdir: path.join(root, 'studio-out'),
    bundle: true,
    write: false,
    // pdf.js is an ES module with top-level await: the studio loads as a module script.
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const files = new Map(result.outputFiles.map((file) => [path.basename(file.path), { type: TYPES[path.extname(file.path)] ?? 'text/plain', body: file.text }]));
  files.set('paged.js', { type: TYPES['.js'], body: fs.readFileSync(pagedBrowserBuild(root), 'utf8') });
  const require = createRequire(path.join(root, 'package.json'));
  files.set('pdf.worker.mjs', { type: TYPES['.js'], body: fs.readFileSync(require.resolve('pdfjs-dist/build/pdf.worker.min.mjs'), 'utf8') });
  return { files };
}

let bundled: Promise<StudioAssets> | undefined;

export function studioAssets(): Promise<StudioAssets> {
  bundled ??= bundleStudio();
  return bundled;
}
