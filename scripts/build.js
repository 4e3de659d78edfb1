// Builds what runs into dist/:
//
// - dist/cli.js (the CLI), dist/lib/index.js (the library, `import { createImprint } from
//   'imprint'`) and dist/einvoice/index.js (`imprint/einvoice`, the e-invoice model): ES modules with our sources bundled and npm packages left external, so
//   `imprint` starts without compiling TypeScript on every run. One build with code splitting:
//   the two share their chunks, and what a command loads with `await import()` (esbuild, the
//   TypeScript compiler behind props schemas...) stays in chunks of its own, so a command that
//   does not need them starts without loading them.
// - dist/react, dist/runtime, dist/compat: `imprint/react`, the page runtime and the htmldocs
//   components as JavaScript, file for file. The template bundler reads them in the installed
//   package (a checkout bundles their sources: core/package-root.ts bundlerInput).
// - dist/web: the browser wing, `imprint dev`'s studio and the service's dashboard, with a
//   manifest of their fingerprinted files (scripts/build-web.js).
// - dist/core/pdf/icc: data files read at run time (RUNTIME_FILES below).
// - with --package (npm pack's prepack): dist/types, the declarations of `imprint`,
//   `imprint/react` and `imprint/einvoice` (tsconfig.types.json), and dist/einvoice-rules, the
//   official e-invoice artefacts compressed file by file (src/cli/einvoice-rules.ts unpacks them).
//
// Other processes may be running the CLI while it is rebuilt (tests, a dev server), so the
// output is replaced without a moment where it is missing: chunks have content-hashed names
// and are written first, the entry files last and atomically; chunks no build has referenced
// for a while are removed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { build } from 'esbuild';
import { removeUnwritten, writeAtomically } from './build-output.js';
import { buildWeb } from './build-web.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist');
// --package (npm pack's prepack): also the declarations, and no chunk of an earlier build, so
// the tarball carries exactly what this build references.
const forPackage = process.argv.includes('--package');

// Which npm packages the built CLI imports and which it carries: a package listed in
// package.json's `dependencies` is installed with imprint and imported from node_modules; any
// other package the code reaches (puppeteer-core, @cantoo/pdf-lib... in devDependencies) is
// bundled into dist, so a user's install does not download its whole tree: only the parts of
// it that Imprint runs ship, as part of our chunks. Bundling also loads faster: @cantoo/pdf-lib
// is 192 ES module files that Node would resolve and link one by one when a PDF is finished.
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const INSTALLED = new Set(Object.keys(manifest.dependencies));
// Never loaded by the code paths Imprint uses, so neither installed nor bundled (imports of them
// stay as they are and are never run): puppeteer's WebDriver BiDi (Imprint speaks CDP), ws's
// optional native speed-ups, pg's optional libpq binding, @puppeteer/browsers' own command line
// (yargs) and its optional proxy peer (proxy-agent: `imprint browser install` uses Node's own
// proxy support, NODE_USE_ENV_PROXY), and the TypeScript loaders
// postcss-load-config tries for a postcss.config.ts (jiti, tsx), which an installed Imprint never had.
// yauzl, @puppeteer/browsers' other optional peer, is bundled: `imprint browser install` then
// unpacks the browser's zip on a machine without the `unzip` program.
const NEVER_LOADED = new Set(['chromium-bidi', 'bufferutil', 'utf-8-validate', 'pg-native', 'yargs', 'proxy-agent', 'jiti', 'tsx']);
// Imported at the top of modules Imprint loads, but only used by parts of them it never runs:
// each is replaced by a module whose exports throw, naming the package, if they ever are run.
// Without them the tarball would carry over a megabyte more.
const NEVER_RUN = {
  // @inquirer/prompts' editor prompt (imprint login asks with input and password only).
  '@inquirer/external-editor': ['editAsync'],
  // xmlbuilder2's YAML reader (the e-invoice writers build XML from objects).
  'js-yaml': ['load'],
};
// Packages the thin path (dist/fast-render.js) imports only on its rare paths (saving a login, a
// spinner on a terminal): not bundled into it, so a warm call loads one small file, but taken from
// dist/vendor/<name>.js, entries of the CLI's build, since they are bundled rather than installed.
const FAST_RENDER_VENDORED = ['conf', 'ora'];
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Our sources load a few heavy CommonJS packages on first use with `requireCjs('<package>')`
 * (createRequire: src/core/schema/load-lazily.ts), which Node runs from sources but esbuild
 * cannot see. In the build that call becomes a plain `require('<package>')`, which esbuild
 * resolves like any import (bundled, or left to node_modules when installed) while keeping it
 * lazy: a bundled CommonJS module's code runs on its first require.
 */
const lazyRequires = {
  name: 'lazy-requires',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('requireCjs(')) return undefined;
      return { contents: source.replace(/\brequireCjs\((?=['"])/g, 'require('), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

const dependencyRule = {
  name: 'dependency-rule',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      const name = packageName(args.path);
      if (INSTALLED.has(name) || NEVER_LOADED.has(name)) return { path: args.path, external: true };
      if (args.path in NEVER_RUN) return { path: args.path, namespace: 'never-run' };
      return undefined;
    });
    builder.onLoad({ filter: /.*/, namespace: 'never-run' }, (args) => ({
      contents: NEVER_RUN[args.path]
        .map((name) => `export function ${name}() { throw new Error("${args.path}'s ${name} is not part of Imprint's build (scripts/build.js NEVER_RUN)"); }`)
        .join('\n'),
      loader: 'js',
    }));
  },
};

async function buildNode() {
  const entries = {
    cli: 'src/cli/entry.ts',
    'lib/index': 'src/lib/index.ts',
    'einvoice/index': 'src/core/einvoice/index.ts',
    // The e-invoice worker thread (src/core/einvoice/off-thread.ts starts it by this file's path).
    'einvoice/worker': 'src/core/einvoice/worker.ts',
    // conf and ora for dist/fast-render.js (below), from the chunks the CLI bundles them into.
    ...Object.fromEntries(FAST_RENDER_VENDORED.map((name) => [`vendor/${name}`, name])),
  };
  const result = await build({
    entryPoints: entries,
    absWorkingDir: ROOT,
    outdir: OUT,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    plugins: [lazyRequires, dependencyRule],
    // jsonc-parser's main build is UMD, whose requires of its own files esbuild cannot follow: its ES module build instead.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    // Bundled CommonJS packages (debug, ws...) require Node's modules; an ES module has no
    // require of its own, so each output file gets one. Some also read CommonJS's __filename
    // or __dirname (postcss-load-config resolves a project's postcss.config.js from its own
    // __filename): an ES module has neither, so each output file gets its own path under names
    // of ours, and `define` points only the free references at them, so a bundled module that
    // declares its own __dirname keeps it and nothing collides. Both name the chunk's file, not
    // the package's: enough to resolve absolute paths from, which is what postcss-load-config
    // does (@fastify/swagger's default title, read through __dirname, is replaced by ours).
    banner: {
      js: [
        "import { createRequire as __imprintCreateRequire } from 'node:module';",
        "import { fileURLToPath as __imprintFileURLToPath } from 'node:url';",
        "import { dirname as __imprintDirnameOf } from 'node:path';",
        'const require = __imprintCreateRequire(import.meta.url);',
        'const __imprintFilename = __imprintFileURLToPath(import.meta.url);',
        'const __imprintDirname = __imprintDirnameOf(__imprintFilename);',
      ].join(' '),
    },
    define: { __filename: '__imprintFilename', __dirname: '__imprintDirname' },
    // Whitespace and syntax only: identifiers keep their names, so stack traces and error names read as written.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  const entryFiles = new Set(Object.keys(entries).flatMap((name) => [`${name}.js`, `${name}.js.map`].map((file) => path.join(OUT, file))));
  const files = [...result.outputFiles].sort((a, b) => Number(entryFiles.has(a.path)) - Number(entryFiles.has(b.path)));
  const written = new Set();
  for (const file of files) {
    writeAtomically(file.path, file.contents);
    written.add(file.path);
  }
  removeUnwritten(path.join(OUT, 'chunks'), written, { now: forPackage });
}

/** Every .ts/.tsx file under src/<dir>, compiled one to one (imports kept), for the template bundler. */
async function buildBundlerInputs() {
  const dirs = ['react', 'runtime', 'compat/htmldocs'];
  const entryPoints = dirs.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, 'src', dir))
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => path.join('src', dir, name)),
  );
  const result = await build({
    entryPoints,
    absWorkingDir: ROOT,
    outbase: 'src',
    outdir: OUT,
    bundle: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    jsx: 'automatic',
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
}

/**
 * The official e-invoice artefacts (rules/einvoice) for the package: each file compressed with Brotli (what compresses XML best) into
 * dist/einvoice-rules (11 MB of XML on every user's disk would be under 1 MB), unpacked on first
 * use by src/cli/einvoice-rules.ts. The Schematron sources (source/) stay in the repository.
 */
function packEInvoiceRules() {
  const from = path.join(ROOT, 'rules', 'einvoice');
  const to = path.join(OUT, 'einvoice-rules');
  fs.rmSync(to, { recursive: true, force: true });
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'source') walk(file);
        continue;
      }
      const target = path.join(to, `${path.relative(from, file)}.br`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, brotliCompressSync(fs.readFileSync(file), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_LGWIN]: 24 } }));
    }
  };
  walk(from);
}

// Data files the code reads at run time from src/ in a checkout, copied to the same path under
// dist/ for the package, which ships no sources (core/package-root.ts runtimeFile): the sRGB
// profile PDF/A and e-invoices embed, and its licence, which must travel with it.
const RUNTIME_FILES = ['core/pdf/icc/sRGB.icc', 'core/pdf/icc/LICENSE'];

function copyRuntimeFiles() {
  for (const file of RUNTIME_FILES) writeAtomically(path.join(OUT, file), fs.readFileSync(path.join(ROOT, 'src', file)));
}

/** The declarations of the package's two entries, by the TypeScript compiler (esbuild writes none). */
function buildTypes() {
  fs.rmSync(path.join(OUT, 'types'), { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.types.json'], { cwd: ROOT, stdio: 'inherit' });
}

// Where the browser pages were built before they were one wing (dist/web): no package carries them again.
for (const obsolete of ['browser', 'dashboard']) fs.rmSync(path.join(OUT, obsolete), { recursive: true, force: true });
await Promise.all([buildNode(), buildBundlerInputs(), buildWeb(ROOT, { forPackage })]);
copyRuntimeFiles();
if (forPackage) {
  buildTypes();
  packEInvoiceRules();
}

// The thin path of `imprint render <id>` to a running warm renderer (src/cli/renderer/client/fast-render.ts,
// loaded by bin/imprint.js before the CLI): one self-contained file, its few small packages bundled in,
// so a warm call resolves and loads one module. Written after dist/cli.js, whose mtime it reads.
const fastRender = await build({
  entryPoints: { 'fast-render': 'src/cli/renderer/client/fast-render.ts' },
  absWorkingDir: ROOT,
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Loaded only on paths the thin one rarely takes (saving a login, a spinner on a terminal):
  // from dist/vendor (FAST_RENDER_VENDORED above).
  plugins: [
    {
      name: 'vendored',
      setup(builder) {
        const names = new RegExp(`^(${FAST_RENDER_VENDORED.join('|')})$`);
        builder.onResolve({ filter: names }, (args) => ({ path: `./vendor/${args.path}.js`, external: true }));
      },
    },
  ],
  // The ES module builds of packages that ship both (jsonc-parser's UMD build requires at run time).
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  write: false,
});
// Written atomically, as the CLI's files are: a call running during a rebuild loads the old file or the new one.
for (const file of fastRender.outputFiles) writeAtomically(file.path, file.contents);

// The route choice (src/cli/renderer/client/route.ts, required first by bin/imprint.js) and the
// nail path of `imprint render <id>` (src/cli/renderer/client/nail-client.ts, which it requires
// for a render): CommonJS because a warm call should not pay for the ES module loader: an empty
// .cjs starts 2-3 ms sooner than an empty .mjs here, and the ESM facades of node:fs/path/net are
// not loaded. The route loads nothing itself, so every other command pays only its 2 KiB.
const nailClient = await build({
  entryPoints: { route: 'src/cli/renderer/client/route.ts', 'nail-client': 'src/cli/renderer/client/nail-client.ts' },
  absWorkingDir: ROOT,
  outdir: OUT,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  logLevel: 'warning',
  write: false,
});
for (const file of nailClient.outputFiles) writeAtomically(file.path, file.contents);
