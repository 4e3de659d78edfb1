/**
 * For the package tests: Imprint as npm ships it. `npm pack` (its prepack builds what runs)
 * once per test run, and npm commands that run as a new user's would: their own HOME, npm
 * cache and global prefix, none of the npm_* settings of the npm that may be running the
 * tests. Each child has a deadline and is killed with its process group when it passes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers/cli.js';

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
 * A new user of this machine: an empty HOME, npm cache and global prefix under `dir`, and the
 * machine's own npm settings that a build of better-sqlite3 needs. Its prebuilt binaries come
 * from GitHub, which this machine cannot reach, so npm compiles it against Node's headers;
 * nodejs.org is unreachable too, so the machine's npm config names them (nodedir=/usr). A user
 * keeps their npm config; only that one setting is carried over to the new HOME.
 */
export async function newUser(dir: string): Promise<{ env: Record<string, string | undefined>; home: string; prefix: string }> {
  const home = path.join(dir, 'home');
  const prefix = path.join(dir, 'prefix');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(prefix, { recursive: true });
  const base = withoutNpmSettings();
  const nodedir = (await run('npm', ['config', 'get', 'nodedir'], { cwd: dir, env: base, timeoutMs: 60_000 })).stdout.trim();
  const npmrc = ['fund=false', 'audit=false', 'update-notifier=false', ...(nodedir && nodedir !== 'undefined' && nodedir !== 'null' ? [`nodedir=${nodedir}`] : [])];
  fs.writeFileSync(path.join(home, '.npmrc'), `${npmrc.join('\n')}\n`);
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

/** `npm pack` of this checkout into `dir` (its prepack builds dist/ and the declarations). */
export async function pack(dir: string): Promise<{ tarball: string; bytes: number; files: string[] }> {
  fs.mkdirSync(dir, { recursive: true });
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
 * better-sqlite3's prebuilt binary, served on 127.0.0.1 the way prebuild-install fetches it
 * from GitHub (which this machine cannot reach, so a first install compiles SQLite: minutes on
 * a busy 2-core machine). The file is the build under `installedPackage`'s node_modules (this
 * checkout's, same machine and Node); the installs get it as a user with GitHub reachable would,
 * through prebuild-install's own mirror setting (npm_config_better_sqlite3_binary_host). Only
 * that version is served: another one is answered 404, and its install compiles SQLite.
 * Undefined when no build is there.
 */
export async function prebuiltSqliteMirror(installedPackage: string): Promise<{ env: Record<string, string>; close(): Promise<void> } | undefined> {
  const module = path.join(installedPackage, 'node_modules', 'better-sqlite3');
  const binary = path.join(module, 'build', 'Release', 'better_sqlite3.node');
  if (!fs.existsSync(binary)) return undefined;
  const { version } = JSON.parse(fs.readFileSync(path.join(module, 'package.json'), 'utf8')) as { version: string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-sqlite-mirror-'));
  const name = `v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  fs.mkdirSync(path.join(dir, `v${version}`));
  const packed = await run('tar', ['-czf', path.join(dir, name), '-C', module, 'build/Release/better_sqlite3.node'], { cwd: dir, env: process.env, timeoutMs: 60_000 });
  if (packed.code !== 0) throw new Error(packed.describe());
  const server = http.createServer((request, response) => {
    const wanted = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname).replace(/^\//, '');
    if (wanted !== name) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/gzip' });
    fs.createReadStream(path.join(dir, name)).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
