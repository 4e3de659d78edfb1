/**
 * docs/deploy.md's walk-through, run as a new operator would: its marked blocks
 * (`<!-- walkthrough -->`), in order, in one bash, in a temporary HOME, with `imprint` on the
 * PATH as `npm install -g imprint` would put it, and only the substitutions the guide names:
 * its five ports (free ones instead) and, as root, its cluster folder. PostgreSQL, s3rver,
 * two nodes and nginx are started by the guide's own commands; a node is killed, everything
 * restarted, and the guide's last block stops everything. If the guide drifts from what the
 * code does, a block fails here.
 *
 * Whatever happens, every process the run started is stopped afterwards (the servers by
 * their pid files, the rest by the run's marker in their environment), and its folders
 * removed.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, ROOT } from '../helpers/cli.js';
import { machineNetworkEnv, markedBlocks, processesWithEnv, runScript, scriptOf, substitute, sweep, type Substitution } from '../helpers/doc-blocks.js';
import { GUIDE_CLUSTER_DIR, GUIDE_PORTS, WALKTHROUGH_MARKER } from '../helpers/deploy-guide.js';
import { freePort } from '../helpers/free-port.js';
import { postgresBinDir } from '../helpers/postgres.js';

const GUIDE = path.join(ROOT, 'docs', 'deploy.md');
const RUN_DEADLINE_MS = 7 * 60_000;
const MARKER = 'IMPRINT_GUIDE_RUN';

const runId = crypto.randomUUID();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-guide-home-'));
// As root the cluster belongs to postgres, which must reach it: not under the 0700 HOME.
const clusterParent = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-guide-pg-'));
fs.chmodSync(clusterParent, 0o755);
const clusterDir = path.join(clusterParent, 'cluster');

after(async () => {
  const stopped = await sweep({
    pidFiles: [
      { file: path.join(home, 'imprint-nginx', 'nginx.pid'), signal: 'SIGTERM' },
      { file: path.join(clusterDir, 'postmaster.pid'), signal: 'SIGQUIT' },
      { file: path.join(home, 'imprint-pg', 'postmaster.pid'), signal: 'SIGQUIT' },
    ],
    markers: [[MARKER, runId], ['HOME', home]],
  });
  if (stopped.length) console.log(`# stopped after the run: ${stopped.join(', ')}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(clusterParent, { recursive: true, force: true });
});

test('docs/deploy.md: the walk-through runs as written, from PostgreSQL to a killed node and a full restart', { timeout: RUN_DEADLINE_MS + 60_000 }, async () => {
  for (const tool of ['/usr/sbin/nginx', '/usr/bin/curl', '/usr/bin/jq', '/usr/bin/pdfinfo']) {
    assert.ok(fs.existsSync(tool), `${tool} is missing: run scripts/setup.sh`);
  }
  assert.ok(postgresBinDir(), 'PostgreSQL server binaries are missing: run scripts/setup.sh');

  // `imprint` as the installed command: this checkout's bin/imprint.js, exec'd so its pid is the node's.
  const bin = path.join(home, '.imprint-bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'imprint'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });

  const ports = await Promise.all(GUIDE_PORTS.map(() => freePort()));
  const substitutions: Substitution[] = [...GUIDE_PORTS.map((port, i): Substitution => [port, ports[i]]), [GUIDE_CLUSTER_DIR, clusterDir]];
  const blocks = markedBlocks(fs.readFileSync(GUIDE, 'utf8'), WALKTHROUGH_MARKER).map((block) => ({ ...block, text: substitute(block.text, substitutions) }));
  assert.ok(blocks.length >= 10, `the walk-through's blocks are marked (${blocks.length} found)`);

  const result = await runScript(scriptOf(blocks, 'docs/deploy.md'), {
    cwd: home,
    timeoutMs: RUN_DEADLINE_MS,
    logFile: path.join(os.tmpdir(), `imprint-guide-${runId}.log`),
    env: {
      ...machineNetworkEnv(),
      HOME: home,
      PATH: [bin, path.dirname(process.execPath), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':'),
      LANG: 'C.UTF-8',
      USER: os.userInfo().username,
      // s3rver comes from npm: the machine's npm cache (filled by npm ci), offline when it can.
      npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
      [MARKER]: runId,
    },
  });
  const output = result.output;
  fs.rmSync(path.join(os.tmpdir(), `imprint-guide-${runId}.log`), { force: true });
  assert.ok(!result.timedOut, `the walk-through did not finish within ${RUN_DEADLINE_MS / 1000} s:\n${output}`);
  assert.equal(result.code, 0, output);
  assert.match(output, /### DONE/);

  // What the guide's comments promise.
  assert.match(output, new RegExp(`listening on http://127\\.0\\.0\\.1:${ports[2]} \\(PostgreSQL 127\\.0\\.0\\.1:${ports[0]}/imprint`), 'node A says where it listens and which database');
  assert.match(output, /"status": "ok"/, '/healthz through nginx answers JSON');
  assert.match(output, new RegExp(`http://127\\.0\\.0\\.1:${ports[4]}/api/files/`), 'the download URL is under nginx');
  const counts = [...output.matchAll(/^acme\s+1000\s+(\d+)\s/gm)].map((m) => Number(m[1]));
  assert.deepEqual(counts, [3, 3], `acme has 3 renders after the kill and after the restart:\n${output}`);
  assert.equal([...output.matchAll(/^Pages:\s+\d+/gm)].length, 2, 'the URL downloads a PDF before and after the restart');
  assert.match(output, /^invoice\b.*\b1\b/m, 'imprint list shows the invoice at version 1');
  assert.doesNotMatch(output, /NodeVersionSupportWarning/, 'the AWS SDK notice is not printed');

  // The guide's last block stopped everything it started and removed its folders.
  assert.deepEqual(processesWithEnv(MARKER, runId), [], 'no process of the run is left');
  assert.deepEqual(processesWithEnv('HOME', home), [], 'no browser of the nodes is left either');
  assert.ok(!fs.existsSync(path.join(home, 'imprint-nginx', 'nginx.pid')), 'nginx stopped');
  assert.deepEqual(fs.readdirSync(home).filter((name) => name.startsWith('imprint-') || name === 'docs'), [], 'the walk-through removed its folders');
});
