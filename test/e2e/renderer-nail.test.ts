/**
 * The nail path (bin/imprint.js -> dist/nail-client.cjs -> the running renderer, which checks
 * the call and writes the PDF itself: renderer/process/nail-serve.ts), through the real CLI and a real
 * renderer: what it writes and says is what the thin path and the in-process CLI write and
 * say; a call it declines (another renderer's settings, another HOME, another umask, an untrusted
 * `last` file) is answered by the thin path, having written nothing of its own. Which path ran
 * is read from the renderer's count of the calls it took whole (`nailed` in its status) and
 * from the modules the client loaded: a nail call with nothing more to say loads no ES module
 * of Imprint's.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, EXAMPLES, INPUTS, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { parseNailTiming } from '../../src/cli/renderer/process/nail-timing.js';
import { pdfInfoFields } from '../helpers/pdf-metadata.js';
import { pdfText } from '../helpers/pdf.js';
import { isAlive, waitForPidExit } from '../helpers/pid-exit.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'renderer');
const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');

const root = tempDir('imprint-nail-');
const runDir = path.join(root, 'run');
const env: Record<string, string> = {
  IMPRINT_RENDERER: 'on',
  IMPRINT_DATA_DIR: path.join(root, 'data'),
  IMPRINT_CONFIG_DIR: path.join(root, 'config'),
  IMPRINT_RUNTIME_DIR: runDir,
  IMPRINT_RENDERER_IDLE: '2m',
};
const pids = new Set<number>();

const run = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { ...env, ...options.env } });
async function ok(args: string[], options: CliOptions = {}) {
  const result = await run(args, options);
  assert.equal(result.code, 0, result.describe());
  return result;
}
async function status(options: CliOptions = {}): Promise<{ pid: number; served: number; nailed: number; socket: string }> {
  const result = await ok(['renderer', 'status', '--json'], options);
  const parsed = JSON.parse(result.stdout.toString());
  if (parsed.pid) pids.add(parsed.pid);
  return parsed;
}

/** The call, with the modules its client loaded: which path answered it. */
async function traced(args: string[], options: CliOptions = {}) {
  const log = path.join(root, `modules-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  const result = await run(args, { ...options, env: { ...options.env, MODULE_LOG: log, NODE_OPTIONS: `--import ${path.join(FIXTURES, 'log-modules.mjs')}` } });
  const loaded = fs.readFileSync(log, 'utf8').split('\n');
  fs.rmSync(log);
  const nail = loaded.some((line) => line.endsWith('/dist/nail-client.cjs'));
  const thin = loaded.some((line) => line.endsWith('/dist/fast-render.js'));
  const cli = loaded.some((line) => line.endsWith('/dist/cli.js'));
  // The nail client always loads for a render; the thin path's module also loads to print what the nail path's client does not (a note, an error).
  return { result, path: cli ? 'cli' : thin ? 'thin' : nail ? 'nail' : 'none' };
}

after(async () => {
  await run(['renderer', 'stop', '--all']);
  await run(['renderer', 'stop', '--all'], { env: { IMPRINT_DATA_DIR: path.join(root, 'other-data') } });
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await Promise.all([...pids].map((pid) => waitForPidExit(pid)));
  fs.rmSync(root, { recursive: true, force: true });
});

test('a warm render with props is the renderer\'s whole: the same bytes, line and exit code as in-process, relative paths in the client\'s folder', async () => {
  await ok(['publish', invoice]);
  await ok(['renderer', 'start']);
  const before = await status();
  const work = path.join(root, 'work');
  fs.mkdirSync(path.join(work, 'out'), { recursive: true });
  fs.copyFileSync(invoiceProps, path.join(work, 'p.json'));

  const warm = await traced(['render', 'invoice', '--props', 'p.json', '-o', 'out/warm.pdf', '--deterministic'], { cwd: work });
  assert.equal(warm.result.code, 0, warm.result.describe());
  assert.equal(warm.path, 'nail', 'neither the thin path nor the CLI program loaded');
  const local = await ok(['render', 'invoice', '--props', 'p.json', '-o', 'out/local.pdf', '--deterministic', '--no-renderer'], { cwd: work });
  assert.ok(fs.readFileSync(path.join(work, 'out', 'warm.pdf')).equals(fs.readFileSync(path.join(work, 'out', 'local.pdf'))), 'a deterministic PDF has the same bytes both ways');
  assert.equal(warm.result.stderr, local.stderr.replace('local.pdf', 'warm.pdf'));
  assert.match(warm.result.stderr, /^Wrote out\/warm\.pdf \(\d+\.\d KiB\)\n$/);
  assert.match(pdfText(path.join(work, 'out', 'warm.pdf')), /INV-2025-0142/);
  const after = await status();
  assert.equal(after.pid, before.pid);
  assert.equal(after.served, before.served + 1, 'the renderer served it');
  assert.equal(after.nailed, before.nailed + 1, 'whole');
  // No temp file left beside the PDF.
  assert.deepEqual(fs.readdirSync(path.join(work, 'out')).sort(), ['local.pdf', 'warm.pdf']);
});

test('--no-tagged is the renderer\'s whole too: an untagged PDF, the same bytes as in-process (a bulk run keeps the warm path)', async () => {
  await ok(['renderer', 'start']);
  const before = await status();
  const work = path.join(root, 'untagged');
  fs.mkdirSync(work, { recursive: true });
  fs.copyFileSync(invoiceProps, path.join(work, 'p.json'));

  const warm = await traced(['render', 'invoice', '--props', 'p.json', '-o', 'warm.pdf', '--deterministic', '--no-tagged'], { cwd: work });
  assert.equal(warm.result.code, 0, warm.result.describe());
  assert.equal(warm.path, 'nail', 'neither the thin path nor the CLI program loaded');
  await ok(['render', 'invoice', '--props', 'p.json', '-o', 'local.pdf', '--deterministic', '--no-tagged', '--no-renderer'], { cwd: work });
  const warmPdf = fs.readFileSync(path.join(work, 'warm.pdf'));
  assert.ok(warmPdf.equals(fs.readFileSync(path.join(work, 'local.pdf'))), 'the same bytes both ways');
  assert.equal(pdfInfoFields(warmPdf).Tagged, 'no');
  const after = await status();
  assert.equal(after.nailed, before.nailed + 1, 'the renderer served it whole');
});

test('to stdout, without props (the PreviewProps note), and a failing render: as in-process, nothing written', async () => {
  const before = await status();
  const warm = await traced(['render', 'invoice', '-o', '-', '--deterministic']);
  assert.equal(warm.result.code, 0, warm.result.describe());
  assert.equal(warm.path, 'thin', 'the client loaded the thin path to print the note');
  assert.equal((await status()).nailed, before.nailed + 1, 'the renderer took it whole');
  const local = await ok(['render', 'invoice', '-o', '-', '--deterministic', '--no-renderer']);
  assert.ok(warm.result.stdout.equals(local.stdout), 'the same PDF on stdout');
  assert.equal(warm.result.stderr, local.stderr);
  assert.match(warm.result.stderr, /PreviewProps/);

  const out = path.join(root, 'nope.pdf');
  const { served, nailed } = await status();
  const failing = await traced(['render', 'nope', '--props', invoiceProps, '-o', out]);
  const failingLocal = await run(['render', 'nope', '--props', invoiceProps, '-o', out, '--no-renderer']);
  assert.equal(failing.path, 'thin');
  assert.notEqual(failing.result.code, 0);
  assert.equal(failing.result.code, failingLocal.code);
  assert.equal(failing.result.stderr, failingLocal.stderr);
  assert.equal(fs.existsSync(out), false);
  const after = await status();
  assert.equal(after.served, served + 1, 'the failure was the renderer\'s');
  assert.equal(after.nailed, nailed + 1, 'and the nail path\'s');
});

test('declined, nothing done: another umask, a call the thin path does not take; the thin path or the CLI answers', async () => {
  // The file's mode is the client's umask: the renderer declines a client whose umask is not its own, and the thin path writes it.
  const before = await status();
  const out = path.join(root, 'umask.pdf');
  const client = spawn('sh', ['-c', 'umask 077; exec "$0" "$1" render invoice --props "$2" -o "$3"', process.execPath, BIN, invoiceProps, out], {
    cwd: INPUTS,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, IMPRINT_MODE: undefined, ...env },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
  assert.equal(code, 0);
  assert.equal(fs.statSync(out).mode & 0o777, 0o600);
  assert.match(pdfText(out), /INV-2025-0142/);
  const after = await status();
  // Through `sh`, which reorders the environment: still this renderer (its name hashes the settings with sorted keys).
  assert.equal(after.pid, before.pid);
  assert.equal(after.served, before.served + 1, 'one render: the thin path\'s');
  assert.equal(after.nailed, before.nailed, 'the declined nail counted none');

  const titled = await traced(['render', 'invoice', '--props', invoiceProps, '--title', 'T', '-o', path.join(root, 'titled.pdf')]);
  assert.equal(titled.result.code, 0, titled.result.describe());
  assert.equal(titled.path, 'cli');
  assert.equal((await status()).nailed, before.nailed, 'another flag: no renderer was asked by the nail path');
});

test('the renderer used last is asked first; one of other settings declines and the right one answers, and is asked first next time', async () => {
  const otherEnv = { IMPRINT_DATA_DIR: path.join(root, 'other-data') };
  await ok(['publish', invoice], { env: otherEnv });
  await ok(['render', 'invoice', '--props', invoiceProps, '-o', path.join(root, 'other.pdf')], { env: otherEnv });
  const other = await status({ env: otherEnv });
  assert.equal(fs.readFileSync(path.join(runDir, 'last'), 'utf8'), path.basename(other.socket), 'the new renderer is the one used last');

  const mine = await status();
  const declined = await traced(['render', 'invoice', '--props', invoiceProps, '-o', path.join(root, 'mine.pdf')]);
  assert.equal(declined.path, 'thin');
  assert.equal((await status({ env: otherEnv })).served, other.served, 'the other renderer rendered nothing');
  assert.equal((await status()).served, mine.served + 1);
  assert.equal((await status()).nailed, mine.nailed);
  assert.equal(fs.readFileSync(path.join(runDir, 'last'), 'utf8'), path.basename(mine.socket));
  const again = await traced(['render', 'invoice', '--props', invoiceProps, '-o', path.join(root, 'mine.pdf')]);
  assert.equal(again.path, 'nail');
});

test('an untrusted `last` is not followed: a name that is not a renderer\'s socket, a folder others can write', async () => {
  const last = path.join(runDir, 'last');
  const mine = await status();
  // A socket that would answer, outside the runtime folder: never connected to.
  let connections = 0;
  const planted = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  const plantedPath = path.join(root, 'elsewhere.sock');
  await new Promise<void>((resolve) => planted.listen(plantedPath, resolve));
  try {
    fs.writeFileSync(last, '../elsewhere.sock');
    const odd = await traced(['render', 'invoice', '--props', invoiceProps, '-o', path.join(root, 'odd.pdf')]);
    assert.equal(odd.result.code, 0, odd.result.describe());
    assert.equal(odd.path, 'thin');
    assert.equal(connections, 0);
    const after = await status();
    assert.equal(after.served, mine.served + 1);
    assert.equal(after.nailed, mine.nailed);
    assert.equal(fs.readFileSync(last, 'utf8'), path.basename(mine.socket), 'the renderer the thin path reached named itself again');
  } finally {
    await new Promise((resolve) => planted.close(resolve));
  }

  fs.chmodSync(runDir, 0o777);
  const open = await traced(['render', 'invoice', '--props', invoiceProps, '-o', path.join(root, 'open.pdf')]);
  assert.equal(open.result.code, 0, open.result.describe());
  assert.notEqual(open.path, 'nail', 'a folder others could write is not trusted by the nail path');
  assert.equal(fs.statSync(runDir).mode & 0o777, 0o700, 'the CLI made the folder anew');
  assert.match(pdfText(path.join(root, 'open.pdf')), /INV-2025-0142/);
  await status();
});

test('IMPRINT_RENDERER_TIMING=1: the renderer it starts logs each nail call\'s phases (profile-warm-call.ts reads them); without it, none', async () => {
  const logOf = (socket: string) => socket.replace(/\.sock$/, '.log');
  const timingLines = (socket: string) =>
    fs
      .readFileSync(logOf(socket), 'utf8')
      .split('\n')
      .map((line) => parseNailTiming(line))
      .filter((phases) => phases !== undefined);
  const props = path.join(root, 'timing-props.json');
  fs.copyFileSync(invoiceProps, props);
  await ok(['publish', invoice]);

  await ok(['renderer', 'stop']);
  const timed = { env: { IMPRINT_RENDERER_TIMING: '1' } };
  await ok(['renderer', 'start'], timed);
  const { socket } = await status(timed);
  for (const name of ['t1.pdf', 't2.pdf']) {
    const call = await traced(['render', 'invoice', '--props', props, '-o', path.join(root, name)], timed);
    assert.equal(call.path, 'nail', call.result.describe());
  }
  const lines = timingLines(socket);
  assert.equal(lines.length, 2, 'one line a nail call');
  for (const phases of lines) {
    assert.deepEqual(Object.keys(phases), ['check', 'slot', 'page', 'print', 'finish', 'write']);
    for (const [name, ms] of Object.entries(phases)) assert.ok(Number.isFinite(ms) && ms >= 0, `${name}: ${ms}`);
    assert.ok(phases.print > 0 && phases.page > 0, 'the render and the print were marked');
  }

  // A bad value is the CLI's usage error, not a renderer that fails to start.
  const bad = await run(['render', 'invoice', '--props', props, '-o', path.join(root, 'bad.pdf')], { env: { IMPRINT_RENDERER_TIMING: 'maybe' } });
  assert.equal(bad.code, 2, bad.describe());
  assert.match(bad.stderr.toString(), /IMPRINT_RENDERER_TIMING/);

  await ok(['renderer', 'stop']);
  await ok(['renderer', 'start']);
  const untimed = await status();
  const call = await traced(['render', 'invoice', '--props', props, '-o', path.join(root, 't3.pdf')]);
  assert.equal(call.path, 'nail', call.result.describe());
  assert.equal(timingLines(untimed.socket).length, lines.length, 'a renderer started without the setting logs no phases');
});
