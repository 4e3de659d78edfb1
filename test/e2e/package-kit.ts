/**
 * For the package tests: Imprint as npm ships it. `npm pack` (its prepack builds what runs)
 * once per test run, and npm commands that run as a new user's would: their own HOME, npm
 * cache and global prefix, none of the npm_* settings of the npm that may be running the
 * tests. Each child has a deadline and is killed with its process group when it passes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers/checkout.js';
import { installedImprint } from '../helpers/installed.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  describe(): string;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

export function run(command: string, args: string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      resolve({ code, stdout, stderr, ms, describe: () => `${command} ${args.join(' ')} exited ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}` });
    });
  });
}

/** The environment without the settings of an npm that runs these tests (npm test sets npm_config_*). */
function withoutNpmSettings(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/**
 * A new user of this machine: an empty HOME, npm cache and global prefix under `dir`, none of
 * the machine's npm settings (nothing Imprint installs is built, so no compiler setting matters).
 */
export async function newUser(dir: string): Promise<{ env: Record<string, string | undefined>; home: string; prefix: string }> {
  const home = path.join(dir, 'home');
  const prefix = path.join(dir, 'prefix');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(prefix, { recursive: true });
  const base = withoutNpmSettings();
  fs.writeFileSync(path.join(home, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  const env = {
    ...base,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    npm_config_cache: path.join(home, '.npm'),
    npm_config_prefix: prefix,
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
    CI: 'true',
    FORCE_COLOR: '0',
    IMPRINT_API_URL: undefined,
    IMPRINT_API_KEY: undefined,
    IMPRINT_MODE: undefined,
    IMPRINT_DATA_DIR: undefined,
    IMPRINT_CONFIG_DIR: undefined,
    // A local template file renders in the CLI's own process; the warm renderer (for published
    // templates) would outlive the test.
    IMPRINT_RENDERER: 'off',
  };
  return { env, home, prefix };
}

/**
 * `npm pack` of this checkout into `dir` (its prepack builds dist/ and the declarations): the
 * test run's own tarball when it has one (scripts/run-tests.js packed it for the package under
 * test), so a run builds the package once.
 */
export async function pack(dir: string): Promise<{ tarball: string; bytes: number; files: string[] }> {
  fs.mkdirSync(dir, { recursive: true });
  if (process.env.IMPRINT_TEST_INSTALL) {
    const tarball = path.join(dir, path.basename(installedImprint().tarball));
    fs.copyFileSync(installedImprint().tarball, tarball);
    const listed = await run('tar', ['-tzf', tarball], { cwd: dir, env: process.env, timeoutMs: 60_000 });
    if (listed.code !== 0) throw new Error(listed.describe());
    const files = listed.stdout.split('\n').filter((line) => line && !line.endsWith('/')).map((line) => line.replace(/^package\//, ''));
    return { tarball, bytes: fs.statSync(tarball).size, files };
  }
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, env: withoutNpmSettings(), timeoutMs: 300_000 });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.describe()}`);
  const [report] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; size: number; files: { path: string }[] }[];
  const tarball = path.join(dir, report.filename);
  return { tarball, bytes: fs.statSync(tarball).size, files: report.files.map((file) => file.path) };
}

/** Bytes on disk under a folder, as `du` counts them (allocated blocks, each hard-linked file once). */
export async function diskUsage(dir: string): Promise<number> {
  const counted = await run('du', ['-sk', dir], { cwd: dir, env: process.env, timeoutMs: 60_000 });
  if (counted.code !== 0) throw new Error(counted.describe());
  return Number(counted.stdout.split('\t')[0]) * 1024;
}

export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

export function pdfText(file: string): Promise<Run> {
  return run('pdftotext', ['-layout', file, '-'], { cwd: path.dirname(file), env: process.env, timeoutMs: 30_000 });
}

/**
 * A PATH on which every compiler and build tool npm could run for a native module (node-gyp's
 * make, cc, c++, python) is a stand-in that writes its name to `log` and fails: an install run
 * with it proves that nothing was compiled, and a dependency that tried to build would fail the
 * install as well as leave its name in the log.
 */
export function compilerTrap(dir: string): { bin: string; ran(): string[] } {
  const bin = path.join(dir, 'compiler-trap');
  const log = path.join(dir, 'compilers-run.log');
  fs.mkdirSync(bin, { recursive: true });
  for (const tool of ['cc', 'gcc', 'c++', 'g++', 'clang', 'clang++', 'make', 'gmake', 'cmake', 'python', 'python3', 'node-gyp']) {
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
  }
  return {
    bin,
    ran: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []),
  };
}

/** The installed packages under `nodeModules` (scoped ones included) that declare an install-time script. */
export function packagesWithInstallScripts(nodeModules: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const folder = path.join(dir, entry);
      if (entry.startsWith('@')) {
        visit(folder);
        continue;
      }
      const manifest = path.join(folder, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const { name, scripts = {}, gypfile } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string>; gypfile?: boolean };
      // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own.
      const builds = gypfile === true || fs.existsSync(path.join(folder, 'binding.gyp'));
      if (scripts.preinstall || scripts.install || scripts.postinstall || builds) found.push(name);
      visit(path.join(folder, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found.sort();
}
