/**
 * The README's quick start of the service (its block marked `<!-- quickstart -->`), run as
 * written in the project `imprint init` writes (the README's npm quick start makes it; here
 * `imprint init` makes it in a temporary folder), in a temporary HOME, with `imprint` on the PATH as
 * `npm link` puts it and only the substitution the README names: its port (a free one).
 * A team and key, `imprint serve` in the background, login, publish, a render through the
 * service, logout and the service stopped: the PDF is checked by content, and the service
 * must have exited by the block's own `kill`. Anything left is stopped afterwards.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, ROOT } from '../helpers/cli.js';
import { markedBlocks, processesWithEnv, runScript, scriptOf, substitute, sweep } from '../helpers/doc-blocks.js';
import { freePort } from '../helpers/free-port.js';

const README = path.join(ROOT, 'README.md');
const README_PORT = 8080;
const RUN_DEADLINE_MS = 3 * 60_000;
const EXIT_DEADLINE_MS = 30_000;
const MARKER = 'IMPRINT_QUICKSTART_RUN';

const runId = crypto.randomUUID();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-quickstart-home-'));

after(async () => {
  const stopped = await sweep({ pidFiles: [], markers: [[MARKER, runId], ['HOME', home]] });
  if (stopped.length) console.log(`# stopped after the run: ${stopped.join(', ')}`);
  fs.rmSync(home, { recursive: true, force: true });
});

test("README.md: the service's quick start runs as written", { timeout: RUN_DEADLINE_MS + EXIT_DEADLINE_MS + 30_000 }, async () => {
  const readme = fs.readFileSync(README, 'utf8');
  const blocks = markedBlocks(readme, 'quickstart');
  assert.equal(blocks.length, 1, 'one block is marked <!-- quickstart -->');
  // The paragraph just before the block.
  const intro = readme.slice(0, readme.indexOf('<!-- quickstart -->')).trimEnd().split('\n\n').at(-1)!;
  assert.match(intro, new RegExp(`port ${README_PORT}`), 'the README names the port the test replaces');

  const bin = path.join(home, '.imprint-bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'imprint'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  // The npm quick start's project: what `imprint init demo` writes.
  const project = path.join(home, 'demo');
  execFileSync(process.execPath, [BIN, 'init', project], { cwd: home, env: { ...process.env, HOME: home }, stdio: 'pipe', timeout: 60_000 });
  const port = await freePort();
  const script = scriptOf(blocks.map((block) => ({ ...block, text: substitute(block.text, [[README_PORT, port]]) })), 'README.md');

  const result = await runScript(script, {
    cwd: project,
    timeoutMs: RUN_DEADLINE_MS,
    env: {
      HOME: home,
      PATH: [bin, path.dirname(process.execPath), '/usr/local/bin', '/usr/sbin', '/usr/bin', '/bin'].join(':'),
      LANG: 'C.UTF-8',
      [MARKER]: runId,
    },
  });
  const log = () => {
    const file = path.join(home, 'imprint-serve.log');
    return `${result.output}\n--- imprint-serve.log:\n${fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(-3000) : '(none)'}`;
  };
  assert.ok(!result.timedOut, `the quick start did not finish within ${RUN_DEADLINE_MS / 1000} s:\n${log()}`);
  assert.equal(result.code, 0, log());

  const pdf = path.join(home, 'invoice.pdf');
  assert.ok(fs.existsSync(pdf), `~/invoice.pdf was written:\n${log()}`);
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  assert.match(info, /^Pages:\s+[1-9]/m);
  assert.match(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }), /INV-/, 'the example invoice, by its text');
  assert.match(fs.readFileSync(path.join(home, 'imprint-serve.log'), 'utf8'), /POST \/api\/documents\/invoice|\/api\/documents\/invoice/, 'the render went through the service');

  // The block's own kill stops the service: it exits by itself (SIGTERM), nothing left behind.
  const deadline = Date.now() + EXIT_DEADLINE_MS;
  const running = () => [...processesWithEnv(MARKER, runId), ...processesWithEnv('HOME', home)];
  while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(running(), [], 'the service and its browser stopped');
});
