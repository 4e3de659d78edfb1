/**
 * The warm renderer, through the real CLI: started by the first render, reused by the next,
 * gone when idle, replaced when it no longer fits, and never the reason a document is wrong
 * or missing. Each test has its own data, config and runtime folders, so its renderers are
 * its own; every renderer it started is stopped, and its exit waited for, before it ends.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, EXAMPLES, INPUTS, ROOT, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { isAlive, waitForPidExit } from '../helpers/pid-exit.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'renderer');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Renderer processes whose runtime folder is `runDir`, from the process table (their settings are in their environment, not argv). */
function renderersIn(runDir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    let environ: string;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes('__imprint-renderer') && environ.split('\0').includes(`IMPRINT_RUNTIME_DIR=${runDir}`)) pids.push(Number(entry));
  }
  return pids;
}

interface Status {
  running: boolean;
  current?: boolean;
  pid?: number;
  served?: number;
  active?: number;
  socket: string;
}

/** One user's machine: its own folders, the renderer on, a short idle time unless given. */
function machine(env: Record<string, string> = {}) {
  const root = tempDir('imprint-renderer-');
  const runDir = path.join(root, 'run');
  const baseEnv: Record<string, string> = {
    IMPRINT_RENDERER: 'on',
    IMPRINT_DATA_DIR: path.join(root, 'data'),
    IMPRINT_CONFIG_DIR: path.join(root, 'config'),
    IMPRINT_RUNTIME_DIR: runDir,
    IMPRINT_RENDERER_IDLE: '2m',
    ...env,
  };
  const run = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { ...baseEnv, ...options.env } });
  return {
    root,
    runDir,
    env: baseEnv,
    run,
    async ok(args: string[], options: CliOptions = {}) {
      const result = await run(args, options);
      assert.equal(result.code, 0, result.describe());
      return result;
    },
    async status(args: string[] = [], options: CliOptions = {}): Promise<Status> {
      const result = await run(['renderer', 'status', '--json', ...args], options);
      assert.equal(result.code, 0, result.describe());
      return JSON.parse(result.stdout.toString()) as Status;
    },
    /** Stops every renderer of this machine and waits for each to exit. */
    async cleanUp() {
      const stop = await run(['renderer', 'stop', '--all']);
      const left = renderersIn(runDir);
      for (const pid of left) {
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
      await Promise.all(left.map((pid) => waitForPidExit(pid)));
      assert.equal(stop.code, 0, stop.describe());
    },
  };
}

type Machine = ReturnType<typeof machine>;
const machines: Machine[] = [];
function newMachine(env?: Record<string, string>): Machine {
  const made = machine(env);
  machines.push(made);
  return made;
}
after(async () => {
  for (const made of machines) await made.cleanUp();
  for (const made of machines) fs.rmSync(made.root, { recursive: true, force: true });
});

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');

async function publishInvoice(m: Machine) {
  await m.ok(['publish', invoice]);
}

test('the first render starts the renderer and the second reuses it; the PDF reads as in-process', async () => {
  const m = newMachine();
  await publishInvoice(m);
  assert.equal((await m.status()).running, false);
  const out = path.join(m.root, 'first.pdf');
  await m.ok(['render', 'invoice', '--props', invoiceProps, '-o', out]);
  const first = await m.status();
  assert.equal(first.running, true);
  assert.equal(first.current, true);
  assert.equal(first.served, 1);

  const second = await m.ok(['render', 'invoice', '--props', invoiceProps, '--format', 'pdf', '-o', '-']);
  const again = await m.status();
  assert.equal(again.pid, first.pid, 'the same renderer served the second call');
  assert.equal(again.served, 2);

  const inProcess = await m.ok(['render', 'invoice', '--props', invoiceProps, '-o', '-', '--no-renderer']);
  assert.equal((await m.status()).served, 2, '--no-renderer does not reach the renderer');
  assert.equal(pdfText(out), pdfText(inProcess.stdout));
  assert.equal(pdfText(second.stdout), pdfText(inProcess.stdout));
  assert.match(pdfText(out), /INV-2025-0142/);
});

test('the socket is private: a 0700 folder, a 0600 socket and lock', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'a.pdf')]);
  const status = await m.status();
  assert.equal(fs.statSync(m.runDir).mode & 0o777, 0o700);
  const socket = fs.statSync(status.socket);
  assert.ok(socket.isSocket());
  assert.equal(socket.mode & 0o777, 0o600);
  assert.equal(fs.statSync(status.socket.replace(/\.sock$/, '.lock')).mode & 0o777, 0o600);
});

test('it exits by itself after its idle time, and removes its socket', async () => {
  const m = newMachine({ IMPRINT_RENDERER_IDLE: '2s' });
  await publishInvoice(m);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'a.pdf')]);
  const status = await m.status();
  assert.ok(status.pid);
  await waitForPidExit(status.pid);
  assert.equal(fs.existsSync(status.socket), false);
  assert.equal((await m.status()).running, false);
});

test('other settings get a renderer of their own; another build replaces the old one', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'a.pdf')]);
  const original = await m.status();

  // Another browser setting: its own renderer, the first one untouched.
  const otherBrowser = { IMPRINT_BROWSER: fs.realpathSync('/usr/bin/chromium') };
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'b.pdf')], { env: otherBrowser });
  const other = await m.status([], { env: otherBrowser });
  assert.ok(other.running);
  assert.notEqual(other.pid, original.pid);
  assert.notEqual(other.socket, original.socket);
  assert.ok(isAlive(original.pid!), 'the first settings keep their renderer');

  // Another build of the CLI (a copy of dist/, so another entry file): the old renderer is stopped and replaced.
  // Inside the package, so the copy finds its node_modules and src/runtime as the real one does.
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const copy = fs.mkdtempSync(path.join(cache, 'imprint-renderer-build-'));
  try {
    fs.cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
    const bin = path.join(copy, 'bin', path.basename(BIN));
    const rendered = await m.ok(['render', 'invoice', '-o', '-'], { bin });
    assert.match(pdfText(rendered.stdout), /INVOICE/);
    const replaced = await m.status([], { bin });
    assert.equal(replaced.current, true);
    assert.notEqual(replaced.pid, original.pid);
    assert.equal(replaced.socket, original.socket, 'same settings, same socket');
    await waitForPidExit(original.pid!);
    // Seen from the first build, it is of another build.
    assert.equal((await m.status()).current, false);
  } finally {
    await m.cleanUp();
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test('a client killed mid-render leaves the renderer serving', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['publish', path.join(FIXTURES, 'Slow.tsx'), '--id', 'slow']);
  await m.ok(['renderer', 'start']);
  const started = await m.status();

  const client = spawn(process.execPath, [BIN, 'render', 'slow', '-o', path.join(m.root, 'slow.pdf')], { cwd: INPUTS, env: { ...process.env, CI: 'true', ...m.env }, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
  // The renderer counts a request when it arrives: from then on, the render is under way.
  const deadline = Date.now() + 60_000;
  for (let status = await m.status(); (status.served ?? 0) < 1; status = await m.status()) {
    assert.ok(Date.now() < deadline, 'the renderer never received the slow render');
    await sleep(50);
  }
  assert.equal(client.exitCode, null, 'the client was still waiting for its slow render');
  client.kill('SIGKILL');
  await exited;

  const out = path.join(m.root, 'after.pdf');
  await m.ok(['render', 'invoice', '--props', invoiceProps, '-o', out]);
  assert.match(pdfText(out), /INV-2025-0142/);
  const status = await m.status();
  assert.equal(status.pid, started.pid);
  assert.equal(status.served, 2);
  assert.equal(fs.existsSync(path.join(m.root, 'slow.pdf')), false, 'the killed client wrote nothing');
});

test('a SIGKILLed renderer leaves a stale socket; the next call cleans it up, starts another and writes the right PDF', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'a.pdf')]);
  const first = await m.status();
  process.kill(first.pid!, 'SIGKILL');
  await waitForPidExit(first.pid!);
  assert.ok(fs.existsSync(first.socket), 'a killed renderer leaves its socket file');
  assert.equal((await m.status()).running, false);

  const out = path.join(m.root, 'b.pdf');
  await m.ok(['render', 'invoice', '--props', invoiceProps, '-o', out]);
  assert.match(pdfText(out), /INV-2025-0142/);
  const second = await m.status();
  assert.ok(second.running);
  assert.notEqual(second.pid, first.pid);
  assert.equal(second.served, 1, 'the new renderer served the call');
});

test('two CLIs started together share one renderer', async () => {
  const m = newMachine();
  await publishInvoice(m);
  const [a, b] = await Promise.all([
    m.run(['render', 'invoice', '-o', path.join(m.root, 'a.pdf')]),
    m.run(['render', 'invoice', '-o', path.join(m.root, 'b.pdf')]),
  ]);
  assert.equal(a.code, 0, a.describe());
  assert.equal(b.code, 0, b.describe());
  const status = await m.status();
  assert.equal(status.served, 2, 'both calls were served by the one renderer');
  assert.deepEqual(renderersIn(m.runDir), [status.pid]);
  assert.equal(pdfText(path.join(m.root, 'a.pdf')), pdfText(path.join(m.root, 'b.pdf')));
});

test('the three examples: the same text through the renderer as in-process, the same bytes when deterministic', async () => {
  const m = newMachine();
  for (const [id, file] of [
    ['invoice', 'invoice/Invoice.tsx'],
    ['letter', 'letter/Letter.tsx'],
    ['report', 'report/Report.tsx'],
  ]) {
    await m.ok(['publish', path.join(EXAMPLES, file), '--id', id]);
    const props = path.join(EXAMPLES, path.dirname(file), 'props.json');
    const warm = await m.ok(['render', id, '--props', props, '-o', '-', '--deterministic']);
    const local = await m.ok(['render', id, '--props', props, '-o', '-', '--deterministic', '--no-renderer']);
    assert.equal(pdfText(warm.stdout), pdfText(local.stdout), id);
    assert.ok(warm.stdout.equals(local.stdout), `${id}: a deterministic PDF has the same bytes both ways`);
  }
  assert.equal((await m.status()).served, 3);
});

test('errors read the same, with the same exit code: bad props, a throwing template, an unknown id', async () => {
  const m = newMachine();
  await m.ok(['publish', path.join(FIXTURES, 'Throws.tsx'), '--id', 'throws']);
  const cases: { args: string[]; stdin?: string }[] = [
    { args: ['render', 'throws', '--props', '-', '-o', '-'], stdin: '{"name": 5}' },
    { args: ['render', 'throws', '--props', '-', '-o', '-'], stdin: '{"name": "boom"}' },
    { args: ['render', 'nope', '-o', '-'] },
  ];
  for (const { args, stdin } of cases) {
    const warm = await m.run(args, { stdin });
    const local = await m.run([...args, '--no-renderer'], { stdin });
    assert.notEqual(warm.code, 0, warm.describe());
    assert.equal(warm.code, local.code, `${warm.describe()}\n---\n${local.describe()}`);
    assert.equal(warm.stderr, local.stderr);
    assert.equal(warm.stdout.length, 0);
  }
  const status = await m.status();
  assert.equal(status.served, cases.length, 'the failures were the renderer\'s');
});

test('--no-renderer and IMPRINT_RENDERER=off render in-process and start nothing', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'a.pdf'), '--no-renderer']);
  await m.ok(['render', 'invoice', '-o', path.join(m.root, 'b.pdf')], { env: { IMPRINT_RENDERER: 'off' } });
  await m.ok(['generate', '--html', '-', '-o', path.join(m.root, 'c.pdf')], { env: { IMPRINT_RENDERER: 'off' }, stdin: '<h1>Hi</h1>' });
  assert.deepEqual(renderersIn(m.runDir), []);
  assert.equal((await m.status()).running, false);
});

test('generate goes through the renderer too', async () => {
  const m = newMachine();
  const out = path.join(m.root, 'hi.pdf');
  await m.ok(['generate', '--html', '-', '-o', out], { stdin: '<h1>Hello from the renderer</h1>' });
  assert.match(pdfText(out), /Hello from the renderer/);
  assert.equal((await m.status()).served, 1);
});

test('--version, --help, schema/login help and a warm render load neither the store\'s native module, esbuild, Puppeteer, React nor pdf-lib; a warm render not even the CLI program', async () => {
  const m = newMachine();
  await publishInvoice(m);
  await m.ok(['renderer', 'start']);
  const heavy = /node_modules\/(better-sqlite3|esbuild|puppeteer-core|react|react-dom|@cantoo\/pdf-lib|typescript)\//;
  for (const args of [['--version'], ['--help'], ['schema', '--help'], ['login', '--help'], ['render', 'invoice', '-o', path.join(m.root, 'warm.pdf')]]) {
    const log = path.join(m.root, 'modules.log');
    fs.rmSync(log, { force: true });
    const result = await runCli(args, { env: { ...m.env, MODULE_LOG: log, NODE_OPTIONS: `--import ${path.join(FIXTURES, 'log-modules.mjs')}` } });
    assert.equal(result.code, 0, result.describe());
    const loaded = fs.readFileSync(log, 'utf8').split('\n');
    if (args[0] === 'render') {
      // The warm render takes bin/imprint.js's thin path: not even the CLI program loads.
      assert.ok(loaded.some((line) => line.endsWith('/dist/fast-render.js')), `the log saw the thin path load (${loaded.join(', ')})`);
      assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/commander/') || line.endsWith('/dist/cli.js')), [], 'the CLI program did not load');
      // Nor node:crypto (3 to 6 ms of a warm call's CPU to load): the thin path hashes in JavaScript.
      assert.ok(!loaded.includes('node:crypto'), `the thin path did not load node:crypto (${loaded.join(', ')})`);
    } else {
      // commander is bundled into the CLI's chunks (scripts/build.js): the CLI program's entry is dist/cli.js.
      assert.ok(loaded.some((line) => line.endsWith('/dist/cli.js')) || args[0] === '--version', `the log saw the CLI load (${args.join(' ')})`);
    }
    assert.deepEqual(loaded.filter((line) => heavy.test(line)), [], args.join(' '));
  }
  assert.equal((await m.status()).served, 1, 'the warm render was the renderer\'s');
});

test('Ctrl-C of the CLI cancels its render in the renderer', async () => {
  const m = newMachine();
  // Longer than nothing but the cancellation could end: the render timeout is 30 s.
  await m.ok(['publish', path.join(FIXTURES, 'Slow.tsx'), '--id', 'slow']);
  await m.ok(['renderer', 'start']);
  const props = path.join(m.root, 'slow.json');
  fs.writeFileSync(props, JSON.stringify({ ms: 120_000 }));
  const client = spawn(process.execPath, [BIN, 'render', 'slow', '--props', props, '-o', path.join(m.root, 'slow.pdf')], { cwd: INPUTS, env: { ...process.env, CI: 'true', ...m.env }, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => client.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (let status = await m.status(); (status.served ?? 0) < 1; status = await m.status()) {
    assert.ok(Date.now() < deadline, 'the renderer never received the slow render');
    await sleep(50);
  }
  client.kill('SIGINT');
  await exited;
  // The page is closed and the slot freed at once, not when the render's 30 s deadline ends it
  // (the wait below stops short of that deadline, so a timeout cannot pass for a cancellation).
  const log = (await m.status()).socket.replace(/\.sock$/, '.log');
  const until = Date.now() + 20_000;
  while (!fs.readFileSync(log, 'utf8').includes('render ended after its CLI went away: Rendering Slow.tsx was cancelled')) {
    assert.ok(Date.now() < until, `no cancellation in the renderer's log:\n${fs.readFileSync(log, 'utf8')}`);
    await sleep(100);
  }
  assert.doesNotMatch(fs.readFileSync(log, 'utf8'), /RENDER_TIMEOUT|did not finish/);
  assert.equal((await m.status()).active, 0);
  assert.equal(fs.existsSync(path.join(m.root, 'slow.pdf')), false);
});

/** Chromium profile folders made in `tmp` while `work` runs: one per browser launched. */
async function profilesMadeDuring(tmp: string, work: () => Promise<void>): Promise<number> {
  const made = new Set<string>();
  const watcher = fs.watch(tmp, (_event, name) => {
    if (name?.startsWith('imprint-profile-')) made.add(name);
  });
  try {
    await work();
  } finally {
    watcher.close();
  }
  return made.size;
}

test('the CLI starts no browser of its own when the renderer serves it: one launch cold (the renderer\'s), none warm', async () => {
  const tmp = tempDir('imprint-renderer-tmp-');
  const m = newMachine({ TMPDIR: tmp });
  await publishInvoice(m);
  const cold = await profilesMadeDuring(tmp, async () => {
    await m.ok(['render', 'invoice', '-o', path.join(m.root, 'cold.pdf')]);
  });
  assert.equal(cold, 1, 'the renderer launched one browser, the CLI none');
  const warm = await profilesMadeDuring(tmp, async () => {
    await m.ok(['render', 'invoice', '-o', path.join(m.root, 'warm.pdf')]);
  });
  assert.equal(warm, 0);
  assert.equal((await m.status()).served, 2);
  await m.cleanUp();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('generate --html <file> on a running renderer takes the thin path: the CLI program does not load, and the PDF is the in-process one', async () => {
  const m = newMachine();
  const page = path.join(m.root, 'page.html');
  fs.writeFileSync(page, '<!doctype html><title>Thin</title><h1>Generated on the warm renderer</h1>');
  await m.ok(['renderer', 'start']);
  const log = path.join(m.root, 'modules.log');
  const warm = await runCli(['generate', '--html', page, '-o', '-', '--deterministic'], { env: { ...m.env, MODULE_LOG: log, NODE_OPTIONS: `--import ${path.join(FIXTURES, 'log-modules.mjs')}` } });
  assert.equal(warm.code, 0, warm.describe());
  const loaded = fs.readFileSync(log, 'utf8').split('\n');
  assert.ok(loaded.some((line) => line.endsWith('/dist/fast-render.js')), `the log saw the thin path load (${loaded.join(', ')})`);
  assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/commander/') || line.endsWith('/dist/cli.js')), [], 'the CLI program did not load');
  assert.equal((await m.status()).served, 1, 'the warm renderer generated it');
  const local = await m.ok(['generate', '--html', page, '-o', '-', '--deterministic', '--no-renderer']);
  assert.ok(warm.stdout.equals(local.stdout), 'a deterministic PDF has the same bytes both ways');
  assert.match(pdfText(warm.stdout), /Generated on the warm renderer/);
});
