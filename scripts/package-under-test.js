// The package under test: this checkout as npm ships it, installed as a user installs it, once
// per test run (issue 35). `npm pack` (its prepack builds dist/ and the declarations), then
// `npm install --global <tarball>` into a throwaway prefix outside the checkout, as a new user:
// its own HOME and npm cache, none of the npm_* settings of an npm that may be running the tests.
// The e2e, contract and multinode suites spawn `imprint` from there (test/helpers/installed.ts),
// with the checkout guard (scripts/checkout-guard.mjs) loaded into every process of it.
//
//   node scripts/package-under-test.js <dir>    installs into <dir>; prints what installed.json holds
//
// <dir>/installed.json: { tarball, packageRoot, bin, prefix, guard, inputs }.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACK_MS = 10 * 60_000;
const INSTALL_MS = 10 * 60_000;

/** The environment of a new user of this machine whose home is under `dir`. */
function newUserEnv(dir) {
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_OPTIONS'));
  return { ...inherited, HOME: home, npm_config_cache: path.join(home, '.npm') };
}

/**
 * What the tests hand `imprint` as a user's input (templates-example/ and the fixtures under
 * test/), copied outside the checkout: a user's templates live in a project of their own, not
 * inside Imprint's checkout, whose package.json, tsconfig.json and node_modules a template's
 * project lookup would otherwise find above them (and the guard would rightly refuse).
 */
function stageInputs(inputs) {
  const skip = (source) => path.basename(source) === 'node_modules';
  for (const folder of ['templates-example', 'test']) {
    fs.cpSync(path.join(ROOT, folder), path.join(inputs, folder), { recursive: true, filter: (source) => !skip(source) });
  }
  return inputs;
}

/** Packs this checkout and installs the tarball globally into `<dir>/prefix`; answers where things are. */
export function installPackageUnderTest(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const env = newUserEnv(dir);
  const packDir = path.join(dir, 'pack');
  fs.mkdirSync(packDir, { recursive: true });
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, env, encoding: 'utf8', timeout: PACK_MS, stdio: ['ignore', 'pipe', 'inherit'] });
  const [report] = JSON.parse(packed.slice(packed.indexOf('[')));
  const tarball = path.join(packDir, report.filename);
  const prefix = path.join(dir, 'prefix');
  // Installed from outside the checkout (cwd), so npm cannot take the checkout for the project.
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], { cwd: dir, env, timeout: INSTALL_MS, stdio: ['ignore', 'ignore', 'inherit'] });
  const packageRoot = path.join(prefix, 'lib', 'node_modules', 'imprint');
  const bin = path.join(packageRoot, 'bin', 'imprint.js');
  if (!fs.existsSync(bin)) throw new Error(`npm install --global ${tarball} left no ${bin}`);
  // The guard is loaded from the installation's folder, not the checkout it guards.
  const guard = path.join(dir, 'checkout-guard.mjs');
  fs.copyFileSync(path.join(ROOT, 'scripts', 'checkout-guard.mjs'), guard);
  const inputs = stageInputs(path.join(dir, 'inputs'));
  const installed = { tarball, packageRoot, bin, prefix, guard, inputs };
  fs.writeFileSync(path.join(dir, 'installed.json'), JSON.stringify(installed, null, 2));
  return installed;
}

/** The environment a test process gets so that the installation it spawns is guarded (checkout-guard.mjs). */
export function guardedEnv(installDir, installed, logFile, searchPath = process.env.PATH ?? '') {
  // One guard per process: a guard this process was started with gives way to this one.
  const inherited = (process.env.NODE_OPTIONS ?? '').split(' ').filter((option) => option && !option.endsWith('checkout-guard.mjs'));
  const nodeOptions = [...inherited, `--import=${installed.guard}`].join(' ');
  // A user's PATH holds no folder of Imprint's checkout: the checkout's node_modules/.bin (npm
  // run puts it first) goes; the Node that scripts/node-runtime.sh installed into .node/ stays,
  // as the machine's Node (the guard lets it be read).
  const dotNode = path.join(ROOT, '.node') + path.sep;
  const PATH = searchPath
    .split(path.delimiter)
    .filter((dir) => !(path.resolve(dir) + path.sep).startsWith(ROOT + path.sep) || (path.resolve(dir) + path.sep).startsWith(dotNode))
    .join(path.delimiter);
  return {
    PATH,
    IMPRINT_TEST_INSTALL: installDir,
    IMPRINT_TEST_CHECKOUT: ROOT,
    IMPRINT_TEST_GUARDED_ROOT: fs.realpathSync(installed.packageRoot),
    IMPRINT_TEST_GUARD_LOG: logFile,
    NODE_OPTIONS: nodeOptions,
  };
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node scripts/package-under-test.js <dir>');
  process.stdout.write(`${JSON.stringify(installPackageUnderTest(path.resolve(dir)))}\n`);
}
