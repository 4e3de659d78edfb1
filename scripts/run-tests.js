// Runs every test file under test/ (unit, store, contract, e2e, multinode: *.test.ts) with node's test runner
// and tsx, finding the files itself (a shell glob over a folder that is still empty would pass a
// literal pattern).
//
// One file at a time (what node --test does anyway on a 2-core machine: its concurrency is the
// cores minus one), each with a deadline: IMPRINT_TEST_FILE_TIMEOUT_MIN minutes (20 by default).
// A file past it is stopped, SIGTERM to its whole process group first (its exit hooks,
// test/helpers/exit-hooks.ts, stop the clusters and nodes it started), SIGKILL 20 s later, and
// the run fails naming it, so one hung start costs minutes, not the CI's 90. A PostgreSQL
// cluster a file started and did not stop (the file was killed before its exit hooks could run)
// is found by the token the file's run was given (IMPRINT_TEST_FILE_TOKEN, written in the
// cluster's folder by test/helpers/postgres.ts) and stopped.
//
//   node scripts/run-tests.js [groups or files...]      on the Node running this script
//   node scripts/run-tests.js --node 24 e2e --node 22 test/e2e/x.test.ts
//                                                        legs, each on that Node major (scripts/node-runtime.sh
//                                                        installs it into .node/ when needed; first on the files' PATH too)
//   node scripts/run-tests.js --ci                       what `npm test` runs: CI_LEGS below
//
// The e2e, contract and multinode suites test the package as users install it: before the first
// of their files, the checkout is packed and installed once into a throwaway prefix outside it
// (scripts/package-under-test.js; IMPRINT_TEST_INSTALL names an installation to reuse), and each
// file runs with the checkout guard (scripts/checkout-guard.mjs) in its processes: a file whose
// installed `imprint` touched the checkout fails, with what it touched.
//
// The run ends with one line counting the tests of every leg, and fails when any file of any leg did.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { guardedEnv, installPackageUnderTest } from './package-under-test.js';

const ALL_GROUPS = ['unit', 'store', 'contract', 'e2e', 'multinode'];
// CI: the whole suite on Node 24 (active LTS), then what must also hold on Node 22 (maintenance
// LTS, the lowest supported): the package as a new user installs it, and every CLI command.
const CI_LEGS = [
  { major: '24', groups: ALL_GROUPS },
  { major: '22', groups: ['test/e2e/package.test.ts', 'test/e2e/commands-smoke.test.ts'] },
];

/**
 * A group's test files, its subfolders' included: test/unit mirrors src/ (the test of
 * src/core/page-size.ts is test/unit/core/page-size.test.ts).
 */
function testFilesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Test files of groups (folders under test/) or of test files named themselves (a path ending .test.ts). */
function filesOf(groups) {
  const files = groups.flatMap((group) => {
    if (group.endsWith('.test.ts')) {
      if (!fs.existsSync(group)) throw new Error(`No test file ${group}`);
      return [group];
    }
    return testFilesUnder(path.join('test', group));
  });
  if (files.length === 0) throw new Error(`No test files found under test/{${groups.join(',')}}`);
  return files;
}

/** The legs the arguments ask for: `--ci`, `--node <major> <groups or files...>` (repeatable), or groups and files for this Node. */
function parseLegs(args) {
  if (args.length === 1 && args[0] === '--ci') return CI_LEGS;
  if (args[0] !== '--node') {
    if (args.some((arg) => arg.startsWith('--'))) throw new Error(`Unknown option in ${args.join(' ')} (--ci, or --node <major> first)`);
    return [{ major: undefined, groups: args.length ? args : ALL_GROUPS }];
  }
  const legs = [];
  for (const arg of args) {
    const leg = legs.at(-1);
    if (leg && leg.major === '') leg.major = arg;
    else if (arg === '--node') legs.push({ major: '', groups: [] });
    else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}`);
    else leg.groups.push(arg);
  }
  for (const leg of legs) if (!/^\d+$/.test(leg.major) || leg.groups.length === 0) throw new Error('--node takes a major (22, 24) and then groups or test files');
  return legs;
}

/** The node binary and PATH a leg's files run with: this process's Node, or that major's from scripts/node-runtime.sh. */
function nodeOf(major) {
  if (major === undefined) return { node: process.execPath, env: {} };
  const bin = spawnSync('bash', [path.join('scripts', 'node-runtime.sh'), 'bin', major], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (bin.status !== 0) throw new Error(`No Node ${major}: scripts/node-runtime.sh bin ${major} failed (exit ${bin.status ?? bin.signal})`);
  const dir = bin.stdout.trim();
  // First on PATH too: what the tests spawn themselves (npm, npx, `#!/usr/bin/env node` scripts) runs on it.
  return { node: path.join(dir, 'node'), env: { PATH: `${dir}${path.delimiter}${process.env.PATH}` } };
}

const legs = parseLegs(process.argv.slice(2)).map((leg) => ({ ...leg, files: filesOf(leg.groups), ...nodeOf(leg.major) }));

// The source's own tests (unit, store) need no installation; every other file runs against one.
const SOURCE_GROUPS = ['unit', 'store'].map((group) => path.join('test', group) + path.sep);
const needsPackage = legs.some((leg) => leg.files.some((file) => !SOURCE_GROUPS.some((folder) => path.normalize(file).startsWith(folder))));

/** The installation the files run against: IMPRINT_TEST_INSTALL's, else one made now and removed at the end. */
function packageUnderTest() {
  const given = process.env.IMPRINT_TEST_INSTALL;
  if (given) return { dir: given, installed: JSON.parse(fs.readFileSync(path.join(given, 'installed.json'), 'utf8')), owned: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-under-test-'));
  process.stdout.write(`# packing this checkout and installing it into ${dir} (the package under test)\n`);
  const started = Date.now();
  const installed = installPackageUnderTest(dir);
  process.stdout.write(`# installed ${path.basename(installed.tarball)} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return { dir, installed, owned: true };
}
const underTest = needsPackage ? packageUnderTest() : undefined;

/** What the guard wrote while a file ran (one JSON line per refused access), and the log removed. */
function guardFindings(logFile) {
  if (!fs.existsSync(logFile)) return [];
  const lines = fs.readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean);
  fs.rmSync(logFile, { force: true });
  return lines.map((line) => JSON.parse(line));
}

const minutes = Number(process.env.IMPRINT_TEST_FILE_TIMEOUT_MIN ?? 20);
if (!(minutes > 0)) throw new Error(`IMPRINT_TEST_FILE_TIMEOUT_MIN must be a number of minutes above 0, not "${process.env.IMPRINT_TEST_FILE_TIMEOUT_MIN}"`);
const FILE_TIMEOUT_MS = minutes * 60_000;
const KILL_GRACE_MS = 20_000;

let current;
// Ctrl-C or a CI cancel: the file running now is stopped the same way, not left behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (current) signalGroup(current, 'SIGTERM');
    process.kill(process.pid, signal);
  });
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

/** Stops and removes the PostgreSQL clusters left behind by the file run with `token`; answers their folders. */
function sweepClusters(token) {
  const left = [];
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith('imprint-pg-')) continue;
    const folder = path.join(os.tmpdir(), name);
    let owner;
    try {
      owner = fs.readFileSync(path.join(folder, 'imprint-test-owner'), 'utf8');
    } catch {
      continue; // not one of this run's (or already being removed)
    }
    if (owner !== token) continue;
    const dataDir = path.join(folder, 'data');
    if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) {
      const bin = fs.readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim();
      const pgCtl = [`/usr/lib/postgresql/${bin}/bin/pg_ctl`, '-D', dataDir, '-m', 'immediate', '-w', 'stop'];
      const [file, args] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...pgCtl]] : [pgCtl[0], pgCtl.slice(1)];
      spawnSync(file, args, { stdio: 'ignore' });
    }
    fs.rmSync(folder, { recursive: true, force: true });
    left.push(folder);
  }
  return left;
}

// The tests of all files together, read from each file's closing lines (the spec reporter's
// "ℹ pass N"), so the run ends with one count of tests, not one per file (nor per leg).
const newTotals = () => ({ pass: 0, fail: 0, skipped: 0, cancelled: 0 });
function countResults(stream, totals) {
  let pending = '';
  stream.on('data', (chunk) => {
    process.stdout.write(chunk);
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const count = /^ℹ (pass|fail|skipped|cancelled) (\d+)$/.exec(line.trim());
      if (count) totals[count[1]] += Number(count[2]);
    }
  });
}

/** Runs one file in a process group of its own, on `leg`'s Node; answers how it ended. */
function runFile(leg, file, token, totals, guard) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(leg.node, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      stdio: ['inherit', 'pipe', 'inherit'],
      detached: true,
      env: { ...process.env, ...leg.env, ...guard, IMPRINT_TEST_FILE_TOKEN: token },
    });
    current = child;
    countResults(child.stdout, totals);
    let timedOut = false;
    let killTimer;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\n${file} did not finish within ${minutes} min: stopping it (SIGTERM, then SIGKILL after ${KILL_GRACE_MS / 1000} s)\n`);
      signalGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), KILL_GRACE_MS);
    }, FILE_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Whatever of its group is left (a child that ignored the SIGTERM) goes with it.
      if (timedOut) {
        clearTimeout(killTimer);
        signalGroup(child, 'SIGKILL');
      }
      current = undefined;
      resolve({ file, code, signal, timedOut, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

const counted = (totals) => `${totals.pass} passed, ${totals.fail + totals.cancelled} failed, ${totals.skipped} skipped`;
const all = newTotals();
const failed = [];
const reports = [];
let fileCount = 0;
for (const leg of legs) {
  const version = spawnSync(leg.node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const name = `Node ${version}`;
  if (legs.length > 1) process.stdout.write(`\n# ${name}: ${leg.files.length} test files (${leg.groups.join(' ')})\n`);
  const totals = newTotals();
  let legFailed = 0;
  for (const file of leg.files) {
    const token = `${process.pid}-${fileCount++}`;
    const logFile = underTest ? path.join(underTest.dir, `guard-${token}.log`) : undefined;
    const guard = underTest ? guardedEnv(underTest.dir, underTest.installed, logFile, leg.env.PATH ?? process.env.PATH) : {};
    const outcome = await runFile(leg, file, token, totals, guard);
    const left = sweepClusters(token);
    if (left.length > 0) process.stderr.write(`${file} left ${left.length} PostgreSQL cluster(s) running; stopped: ${left.join(', ')}\n`);
    const touched = logFile ? guardFindings(logFile) : [];
    if (touched.length > 0) {
      const files = [...new Map(touched.toReversed().map((found) => [found.file, found])).values()].reverse();
      process.stderr.write(`\n${file}: the installed package touched the checkout ${touched.length} time(s); it must carry what it reads:\n`);
      for (const found of files.slice(0, 20)) process.stderr.write(`  ${found.operation} ${found.file} (from ${found.caller})\n`);
      if (outcome.code === 0) outcome.code = 'checkout read';
    }
    if (outcome.code !== 0) {
      failed.push({ ...outcome, name });
      legFailed++;
    }
  }
  for (const key of Object.keys(all)) all[key] += totals[key];
  reports.push(`${name}: ${leg.files.length - legFailed} of ${leg.files.length} test files passed; tests: ${counted(totals)}`);
}
if (legs.length > 1) process.stdout.write(`\n${reports.join('\n')}\n`);
if (failed.length > 0) {
  process.stderr.write(`\n${failed.length} of ${fileCount} test files failed:\n`);
  for (const { name, file, code, signal, timedOut, seconds } of failed) {
    process.stderr.write(`  ${legs.length > 1 ? `${name}: ` : ''}${file}: ${timedOut ? `timed out after ${minutes} min` : `exit ${code ?? signal}`} (${seconds} s)\n`);
  }
  process.stdout.write(`\ntests: ${counted(all)}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`\nall ${fileCount} test files passed\ntests: ${counted(all)}\n`);
}
if (underTest?.owned) fs.rmSync(underTest.dir, { recursive: true, force: true });
