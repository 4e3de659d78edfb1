// Builds the CLI into dist/cli.js: ES modules with our sources bundled and npm packages left
// external, so `imprint` starts without compiling TypeScript on every run. Code splitting
// keeps what a command loads with `await import()` (esbuild, the TypeScript compiler behind
// props schemas...) in chunks of their own, so a command that does not need them starts
// without loading them.
//
// Other processes may be running the CLI while it is rebuilt (tests, a dev server), so the
// output is replaced without a moment where it is missing: chunks have content-hashed names
// and are written first, the entry file last and atomically; chunks no build has referenced
// for a while are removed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const OUT = 'dist';
const STALE_MS = 10 * 60_000;

// One exception to "packages external": @cantoo/pdf-lib ships 192 ES module files, which Node
// resolves and links one by one when a PDF is finished (about 0.1 s of a cold render). Bundled
// into the chunk that imports it, it loads as one file; its own dependencies stay external.
const bundlePdfLib = {
  name: 'bundle-pdf-lib',
  setup(builder) {
    builder.onResolve({ filter: /^@cantoo\/pdf-lib$/ }, () => ({ path: fileURLToPath(import.meta.resolve('@cantoo/pdf-lib')) }));
  },
};

const result = await build({
  entryPoints: { cli: 'src/cli/entry.ts' },
  outdir: OUT,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [bundlePdfLib],
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});

const entry = path.resolve(OUT, 'cli.js');
const written = new Set();
const files = [...result.outputFiles].sort((a, b) => Number(a.path === entry) - Number(b.path === entry));
for (const file of files) {
  fs.mkdirSync(path.dirname(file.path), { recursive: true });
  const temp = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(temp, file.contents);
  fs.renameSync(temp, file.path);
  written.add(file.path);
}

const chunks = path.resolve(OUT, 'chunks');
for (const name of fs.existsSync(chunks) ? fs.readdirSync(chunks) : []) {
  const file = path.join(chunks, name);
  if (!written.has(file) && Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
}

// The thin path of `imprint render <id>` to a running warm renderer (src/cli/renderer/fast-render.ts,
// loaded by bin/imprint.js before the CLI): one self-contained file, its few small packages bundled in,
// so a warm call resolves and loads one module. Written after dist/cli.js, whose mtime it reads.
await build({
  entryPoints: { 'fast-render': 'src/cli/renderer/fast-render.ts' },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Loaded only on paths the thin one never takes here (saving a login, a spinner on a terminal).
  external: ['conf', 'ora'],
  // The ES module builds of packages that ship both (jsonc-parser's UMD build requires at run time).
  mainFields: ['module', 'main'],
  logLevel: 'warning',
});
