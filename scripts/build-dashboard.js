// Builds the service's dashboard (src/dashboard/, served by `imprint serve`) into dist/dashboard/:
// fingerprinted file names (app-<hash>.js, app-<hash>.css; pdf.worker-<hash>.mjs names the studio's worker), so browsers
// may keep them for good, and manifest.json naming them, written last and atomically: a
// service reading it while this runs sees the old build or the new one, whole. Nothing is
// loaded from a CDN: React, react-jsonschema-form and pdf.js are bundled in.
// Run by scripts/build.js; `node scripts/build-dashboard.js` builds the dashboard alone.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'dashboard');
const STALE_MS = 10 * 60_000;

function writeAtomically(file, contents) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

export async function buildDashboard() {
  const result = await build({
    entryPoints: { app: path.join(ROOT, 'src', 'dashboard', 'main.tsx') },
    absWorkingDir: ROOT,
    outdir: OUT,
    entryNames: '[name]-[hash]',
    bundle: true,
    write: false,
    // pdf.js is an ES module with top-level await: the app loads as a module script.
    format: 'esm',
    platform: 'browser',
    // pdf.js 6's oldest browsers (Chrome 125, Safari 18; Firefox from 124 has what it needs, 128 is an ESR).
    target: ['chrome125', 'firefox128', 'safari18'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  fs.mkdirSync(OUT, { recursive: true });
  const written = new Set();
  const manifest = {};
  for (const file of result.outputFiles) {
    writeAtomically(file.path, file.contents);
    written.add(path.basename(file.path));
    if (file.path.endsWith('.js')) manifest.js = path.basename(file.path);
    if (file.path.endsWith('.css')) manifest.css = path.basename(file.path);
  }
  // pdf.js's worker (1.4 MB) is the studio's copy (scripts/browser-assets.js, dist/browser/studio),
  // not a second one: the package ships it once. The name still changes with its bytes, and the
  // service serves that name from the studio's file (src/server/dashboard/assets.ts).
  const worker = fs.readFileSync(createRequire(path.join(ROOT, 'package.json')).resolve('pdfjs-dist/build/pdf.worker.min.mjs'));
  manifest.worker = `pdf.worker-${createHash('sha256').update(worker).digest('hex').slice(0, 10)}.mjs`;
  if (!manifest.js || !manifest.css) throw new Error('The dashboard build made no script or no stylesheet.');
  writeAtomically(path.join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  written.add('manifest.json');
  // Files of earlier builds go once no running service can still be serving a page naming them.
  for (const name of fs.readdirSync(OUT)) {
    const file = path.join(OUT, name);
    if (!written.has(name) && Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
  }
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildDashboard();
