// Measures the package budgets (README, "Package budgets"): the tarball's size, and a global
// install's time and size on disk, into an empty prefix as a new user (own HOME and npm cache),
// dependencies from the npm registry.
//
//   node scripts/measure-install.js [runs=3] [kinds=cold,warm,prebuilt-cold,prebuilt] [tarball]
//
// Four kinds of install, each `runs` times, each into a new prefix:
//   cold           an empty npm cache: every dependency downloaded;
//   warm           the npm cache of an earlier install (a user who installed once before, a CI cache);
//   prebuilt-cold  an empty npm cache, and better-sqlite3's prebuilt binary reachable: a new user
//                  with GitHub reachable. better-sqlite3's install script fetches the binary from
//                  GitHub, which this machine cannot reach, and falls back to compiling SQLite
//                  (about a minute of CPU, several on a loaded machine). Here a local mirror
//                  (npm_config_better_sqlite3_binary_host, which prebuild-install reads) serves the
//                  same file, packed from this checkout's own build of better-sqlite3;
//   prebuilt       warm, and the prebuilt binary reachable.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 3);
const kinds = (process.argv[3] ?? 'cold,warm,prebuilt-cold,prebuilt').split(',');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-measure-'));
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const nodedir = spawnSync('npm', ['config', 'get', 'nodedir'], { env: baseEnv, encoding: 'utf8' }).stdout.trim();

function pack() {
  if (process.argv[4]) return path.resolve(process.argv[4]);
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env: baseEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(work, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
}

const du = (dir) => Number(execFileSync('du', ['-sb', '--apparent-size', dir], { encoding: 'utf8' }).split('\t')[0]);
const duBlocks = (dir) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) * 1024;

/** One `npm install -g` as a new user; `cache` shared between runs of a kind when warm. */
async function install(tarball, name, cache, extraEnv = {}) {
  const home = path.join(work, name, 'home');
  const prefix = path.join(work, name, 'prefix');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(path.join(home, '.npmrc'), `fund=false\naudit=false\nupdate-notifier=false\n${nodedir && nodedir !== 'undefined' ? `nodedir=${nodedir}\n` : ''}`);
  const env = { ...baseEnv, HOME: home, npm_config_cache: cache, npm_config_prefix: prefix, ...extraEnv };
  const started = performance.now();
  // Not spawnSync: the mirror below answers from this process's event loop.
  const result = await new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '-g', tarball], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`npm install -g failed:\n${result.output}`);
  const version = spawnSync(path.join(prefix, 'bin', 'imprint'), ['--version'], { env, encoding: 'utf8' }).stdout.trim();
  // A compiled better-sqlite3 leaves its build tree (build/deps); a prebuilt one only the binary.
  const sqlite = fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'imprint', 'node_modules', 'better-sqlite3', 'build', 'deps')) ? 'compiled' : 'prebuilt';
  return { seconds, bytes: duBlocks(prefix), apparent: du(prefix), version, sqlite };
}

/** better-sqlite3's prebuilt binary as prebuild-install names and packs it, served on 127.0.0.1. */
async function binaryMirror() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'));
  const dir = path.join(work, 'mirror');
  const name = `better-sqlite3-v${pkg.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  fs.mkdirSync(path.join(dir, `v${pkg.version}`), { recursive: true });
  execFileSync('tar', ['-czf', path.join(dir, `v${pkg.version}`, name), '-C', path.join(ROOT, 'node_modules', 'better-sqlite3'), 'build/Release/better_sqlite3.node']);
  const server = http.createServer((request, response) => {
    const file = path.join(dir, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/gzip' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} s (min ${sorted[0].toFixed(1)}, max ${sorted.at(-1).toFixed(1)}, mean ${mean.toFixed(1)}, n=${values.length})`;
};

const tarball = pack();
console.log(`tarball: ${(fs.statSync(tarball).size / 1024 / 1024).toFixed(2)} MiB (${tarball})`);
const mirror = await binaryMirror();
try {
  const results = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const warmCache = path.join(work, 'warm-cache');
  const mirrorEnv = { npm_config_better_sqlite3_binary_host: mirror.url };
  // The warm cache is filled by one install first (not counted) when no cold run fills it.
  if (!kinds.includes('cold')) await install(tarball, 'fill-cache', warmCache, mirrorEnv);
  for (let i = 0; i < runs; i++) {
    const kindRuns = {
      cold: () => install(tarball, `cold-${i}`, i === 0 ? warmCache : path.join(work, `cold-cache-${i}`)),
      warm: () => install(tarball, `warm-${i}`, warmCache),
      'prebuilt-cold': () => install(tarball, `prebuilt-cold-${i}`, path.join(work, `prebuilt-cold-cache-${i}`), mirrorEnv),
      prebuilt: () => install(tarball, `prebuilt-${i}`, warmCache, mirrorEnv),
    };
    for (const kind of kinds) results[kind].push(await kindRuns[kind]());
    console.log(`run ${i + 1}: ${kinds.map((kind) => `${kind} ${results[kind][i].seconds.toFixed(1)} s (SQLite ${results[kind][i].sqlite})`).join(', ')}`);
  }
  for (const [kind, list] of Object.entries(results)) {
    console.log(`${kind.padEnd(13)} ${stats(list.map((r) => r.seconds))}; on disk ${(list[0].bytes / 1e6).toFixed(1)} MB (apparent ${(list[0].apparent / 1e6).toFixed(1)} MB); --version ${list[0].version}`);
  }
} finally {
  await mirror.close();
  fs.rmSync(work, { recursive: true, force: true });
}
