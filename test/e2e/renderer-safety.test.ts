/**
 * The warm renderer belongs to its user (issue 26), through the real CLI and real renderers,
 * run as root with another user's (nobody's) files made for real: a runtime folder that cannot
 * be made safe (a symlink planted at its name, a folder another user owns) makes the CLI render
 * in its own process with a one-line notice instead of failing; a socket another user planted
 * under the expected name (in a folder others could write, or not this user's) is never talked
 * to, so its answer is never written as the PDF; and the renderer's settings and handshake key
 * are not on its command line, where every user can read them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { EXAMPLES, runCli, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { waitForPidExit } from '../helpers/pid-exit.js';

const NOBODY = 65534;
const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const NOTICE = /^⚠ The warm renderer's folder (.*) (is a symbolic link \(anyone may have planted it\)|belongs to another user \(uid 65534\)), so it is not used\. .* Rendering in this process\.$/m;

const roots: string[] = [];
const stops: (() => Promise<unknown>)[] = [];
after(async () => {
  // Every folder is removed even when a stop fails; the failures are reported after.
  const failures: unknown[] = [];
  for (const stop of stops) await stop().catch((error: unknown) => failures.push(error));
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  if (failures.length > 0) throw new AggregateError(failures, 'stopping what the tests started');
});

/** One user's machine with the renderer on; `env` chooses where its runtime folder is. */
async function machine(env: (root: string) => Record<string, string | undefined>) {
  // Short: Chromium's own sockets go under TMPDIR, and a socket path has at most 107 bytes.
  const root = fs.mkdtempSync('/tmp/irs-');
  roots.push(root);
  const baseEnv = {
    IMPRINT_RENDERER: 'on',
    IMPRINT_DATA_DIR: path.join(root, 'data'),
    IMPRINT_CONFIG_DIR: path.join(root, 'config'),
    IMPRINT_RUNTIME_DIR: undefined,
    XDG_RUNTIME_DIR: undefined,
    IMPRINT_RENDERER_IDLE: '2m',
    ...env(root),
  };
  const run = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { ...baseEnv, ...options.env } });
  stops.push(async () => {
    const status = JSON.parse((await run(['renderer', 'status', '--json'])).stdout.toString() || '{}');
    await run(['renderer', 'stop', '--all']);
    if (status.pid) await waitForPidExit(status.pid);
  });
  const published = await run(['publish', invoice]);
  assert.equal(published.code, 0, published.describe());
  return {
    root,
    run,
    /** Renders the invoice to a file; the CLI must succeed and the PDF be the real one. */
    async render(name: string) {
      const out = path.join(root, name);
      const result = await run(['render', 'invoice', '-o', out]);
      assert.equal(result.code, 0, result.describe());
      const text = pdfText(out);
      assert.match(text, /INV-2025-0007/, 'the real invoice was written');
      return result;
    },
    async status() {
      const result = await run(['renderer', 'status', '--json']);
      assert.equal(result.code, 0, result.describe());
      return JSON.parse(result.stdout.toString()) as { running: boolean; pid?: number; key?: string; socket: string; dataDir?: string };
    },
  };
}

/** A folder of nobody's, writable by all, as another user would leave it. */
function nobodysFolder(where: string): string {
  fs.mkdirSync(where, { recursive: true });
  fs.chmodSync(where, 0o777);
  fs.chownSync(where, NOBODY, NOBODY);
  return where;
}

for (const [what, plant] of [
  ['a symlink planted at its name', (runtime: string, root: string) => fs.symlinkSync(nobodysFolder(path.join(root, 'trap')), runtime)],
  ['a folder another user owns at its name', (runtime: string) => nobodysFolder(runtime)],
] as const) {
  test(`the runtime folder in the temp folder is ${what}: the CLI renders in-process, says so in one line, exits 0`, async () => {
    const m = await machine((root) => ({ TMPDIR: path.join(root, 'tmp') }));
    const runtime = path.join(m.root, 'tmp', `imprint-${process.getuid!()}`);
    fs.mkdirSync(path.dirname(runtime), { recursive: true });
    plant(runtime, m.root);
    const rendered = await m.render('out.pdf');
    const notices = rendered.stderr.split('\n').filter((line) => NOTICE.test(line));
    assert.equal(notices.length, 1, rendered.describe());
    assert.equal(NOTICE.exec(notices[0])![1], runtime);
    assert.deepEqual(fs.readdirSync(runtime), [], 'nothing was put in the planted folder');
    assert.equal(fs.statSync(runtime).uid, NOBODY, 'and it was left alone');
  });
}

/** Another user's socket under the expected name, answering as a renderer with the right key would, with a forged PDF. */
async function plantSocket(socketPath: string, key: string) {
  let connections = 0;
  const forged = Buffer.from('%PDF-1.4\n% forged by another user\n%%EOF\n');
  const server = net.createServer((socket) => {
    connections++;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const request = JSON.parse(line) as { type: string };
        const answer =
          request.type === 'hello'
            ? { type: 'hello', key, pid: process.pid, startedAt: new Date().toISOString(), idleMs: 60_000, dataDir: '/x', served: 0, active: 0 }
            : { type: 'result', result: { format: 'pdf', pdf: forged.toString('base64') }, usedPreviewProps: false };
        socket.write(`${JSON.stringify(answer)}\n`);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  fs.chownSync(socketPath, NOBODY, NOBODY);
  fs.chmodSync(socketPath, 0o777);
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  stops.push(close);
  return { connections: () => connections, close };
}

test("another user's socket under the expected name is never talked to: in a folder others could write, nor in this user's own", async () => {
  const m = await machine((root) => ({ IMPRINT_RUNTIME_DIR: path.join(root, 'run') }));
  const runDir = path.join(m.root, 'run');
  // A renderer of this user's, for its socket's name and key (what `ps` once showed everyone).
  await m.render('first.pdf');
  const legit = await m.status();
  assert.ok(legit.running && legit.pid && legit.key, JSON.stringify(legit));
  const stopped = await m.run(['renderer', 'stop']);
  assert.equal(stopped.code, 0, stopped.describe());
  await waitForPidExit(legit.pid!);

  // A folder of this user's that others could write: whatever is in it is not trusted.
  fs.chmodSync(runDir, 0o777);
  const planted = await plantSocket(legit.socket, legit.key!);
  await m.render('second.pdf');
  assert.equal(planted.connections(), 0, 'the planted socket was never connected to');
  assert.equal(fs.statSync(runDir).mode & 0o777, 0o700, 'the folder was made anew, private');
  const again = await m.status();
  assert.ok(again.running, 'a renderer of its own serves it now');
  await m.run(['renderer', 'stop']);
  await waitForPidExit(again.pid!);
  // (Closed only now: closing a listening server removes the file at its path, by then the new renderer's.)
  await planted.close();

  // In this user's private folder, a socket that is not this user's (only root could put it there) is not talked to either.
  const other = await plantSocket(legit.socket, legit.key!);
  await m.render('third.pdf');
  assert.equal(other.connections(), 0, 'a socket of another user is not connected to');
});

test("the renderer's settings and key are not on its command line, which every user reads in ps", async () => {
  const m = await machine((root) => ({ IMPRINT_RUNTIME_DIR: path.join(root, 'run') }));
  await m.render('out.pdf');
  const status = await m.status();
  assert.ok(status.running && status.pid && status.key, JSON.stringify(status));
  const cmdline = fs.readFileSync(`/proc/${status.pid}/cmdline`, 'utf8').split('\0');
  for (const secret of [status.key!, path.basename(status.socket), path.join(m.root, 'data')]) {
    assert.ok(!cmdline.some((arg) => arg.includes(secret)), `${secret} is in argv: ${cmdline.join(' ')}`);
  }
  // Its environment holds them, which only its own user can read.
  assert.equal(fs.statSync(`/proc/${status.pid}/environ`).mode & 0o777, 0o400);
});
