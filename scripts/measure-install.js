// Measures the package budgets (README, "Package budgets"): the tarball's size, and a global
// install's time and size on disk, into an empty prefix as a new user (own HOME and npm cache),
// dependencies from the npm registry.
//
//   node scripts/measure-install.js [runs=3] [kinds=cold,warm] [tarball]
//
// Two kinds of install, each `runs` times, each into a new prefix, on whatever Node runs this
// script (`bash scripts/node-runtime.sh exec 22 -- node scripts/measure-install.js` for Node 22):
//   cold   an empty npm cache: every dependency downloaded;
//   warm   the npm cache of an earlier install (a user who installed once before, a CI cache).
// Nothing is compiled in either (the store is Node's own node:sqlite); each run reports
// whether a native build tree appeared anyway.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 3);
const kinds = (process.argv[3] ?? 'cold,warm').split(',');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-measure-'));
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

function pack() {
  if (process.argv[4]) return path.resolve(process.argv[4]);
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env: baseEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(work, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
}

const du = (dir) => Number(execFileSync('du', ['-sb', '--apparent-size', dir], { encoding: 'utf8' }).split('\t')[0]);
const duBlocks = (dir) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) * 1024;

/** One `npm install -g` as a new user; `cache` shared between runs of a kind when warm. */
async function install(tarball, name, cache) {
  const home = path.join(work, name, 'home');
  const prefix = path.join(work, name, 'prefix');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(path.join(home, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  const env = { ...baseEnv, HOME: home, npm_config_cache: cache, npm_config_prefix: prefix };
  const started = performance.now();
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
  const version = execFileSync(path.join(prefix, 'bin', 'imprint'), ['--version'], { env, encoding: 'utf8' }).trim();
  // node-gyp leaves a build/ folder with a Makefile behind; a package that shipped its binary does not.
  const built = execFileSync('find', [prefix, '-name', 'Makefile', '-path', '*/build/*'], { encoding: 'utf8' }).trim();
  return { seconds, bytes: duBlocks(prefix), apparent: du(prefix), version, compiled: built ? 'compiled something' : 'compiled nothing' };
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} s (min ${sorted[0].toFixed(1)}, max ${sorted.at(-1).toFixed(1)}, mean ${mean.toFixed(1)}, n=${values.length})`;
};

const tarball = pack();
console.log(`tarball: ${(fs.statSync(tarball).size / 1024 / 1024).toFixed(2)} MiB (${tarball})`);
console.log(`Node ${process.versions.node}, npm ${execFileSync('npm', ['--version'], { env: baseEnv, encoding: 'utf8' }).trim()}`);
try {
  const results = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const warmCache = path.join(work, 'warm-cache');
  // The warm cache is filled by one install first (not counted) when no cold run fills it.
  if (!kinds.includes('cold')) await install(tarball, 'fill-cache', warmCache);
  for (let i = 0; i < runs; i++) {
    const kindRuns = {
      cold: () => install(tarball, `cold-${i}`, i === 0 ? warmCache : path.join(work, `cold-cache-${i}`)),
      warm: () => install(tarball, `warm-${i}`, warmCache),
    };
    for (const kind of kinds) results[kind].push(await kindRuns[kind]());
    console.log(`run ${i + 1}: ${kinds.map((kind) => `${kind} ${results[kind][i].seconds.toFixed(1)} s (${results[kind][i].compiled})`).join(', ')}`);
  }
  for (const [kind, list] of Object.entries(results)) {
    console.log(`${kind.padEnd(13)} ${stats(list.map((r) => r.seconds))}; on disk ${(list[0].bytes / 1e6).toFixed(1)} MB (apparent ${(list[0].apparent / 1e6).toFixed(1)} MB); --version ${list[0].version}`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
