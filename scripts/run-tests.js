// Runs every test file under test/ (unit, store, contract, e2e, multinode: *.test.ts) with node's test runner
// and tsx. Node 20's --test does not expand globs itself, and a shell glob over a folder
// that is still empty would pass a literal pattern; this finds the files instead.
//
// One file at a time (what node --test does anyway on a 2-core machine: its concurrency is the
// cores minus one), each with a deadline: IMPRINT_TEST_FILE_TIMEOUT_MIN minutes (20 by default).
// A file past it is stopped, SIGTERM to its whole process group first (its exit hooks,
// test/helpers/exit-hooks.ts, stop the clusters and nodes it started), SIGKILL 20 s later, and
// the run fails naming it, so one hung start costs minutes, not the CI's 90. A PostgreSQL
// cluster a file started and did not stop (the file was killed before its exit hooks could run)
// is found by the token the file's run was given (IMPRINT_TEST_FILE_TOKEN, written in the
// cluster's folder by test/helpers/postgres.ts) and stopped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Arguments: groups (folders under test/), or test files themselves (a path ending .test.ts).
const groups = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'store', 'contract', 'e2e', 'multinode'];
const files = groups.flatMap((group) => {
  if (group.endsWith('.test.ts')) {
    if (!fs.existsSync(group)) throw new Error(`No test file ${group}`);
    return [group];
  }
  const dir = path.join('test', group);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join(dir, f)) : [];
});
if (files.length === 0) throw new Error(`No test files found under test/{${groups.join(',')}}`);

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
// "ℹ pass N"), so the run ends with one count of tests, not one per file.
const totals = { pass: 0, fail: 0, skipped: 0, cancelled: 0 };
function countResults(stream) {
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

/** Runs one file in a process group of its own; answers how it ended. */
function runFile(file, token) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      stdio: ['inherit', 'pipe', 'inherit'],
      detached: true,
      env: { ...process.env, IMPRINT_TEST_FILE_TOKEN: token },
    });
    current = child;
    countResults(child.stdout);
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

const failed = [];
const summary = () => `tests: ${totals.pass} passed, ${totals.fail + totals.cancelled} failed, ${totals.skipped} skipped`;
for (const [index, file] of files.entries()) {
  const token = `${process.pid}-${index}`;
  const outcome = await runFile(file, token);
  const left = sweepClusters(token);
  if (left.length > 0) process.stderr.write(`${file} left ${left.length} PostgreSQL cluster(s) running; stopped: ${left.join(', ')}\n`);
  if (outcome.code !== 0) failed.push(outcome);
}
if (failed.length > 0) {
  process.stderr.write(`\n${failed.length} of ${files.length} test files failed:\n`);
  for (const { file, code, signal, timedOut, seconds } of failed) {
    process.stderr.write(`  ${file}: ${timedOut ? `timed out after ${minutes} min` : `exit ${code ?? signal}`} (${seconds} s)\n`);
  }
  process.stdout.write(`\n${summary()}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`\nall ${files.length} test files passed\n${summary()}\n`);
}
