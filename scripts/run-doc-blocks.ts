/**
 * Runs a markdown file's marked shell blocks by hand, as test/e2e/deploy-guide.test.ts and
 * test/e2e/readme-quickstart.test.ts do: in order, in one bash, in a temporary HOME, with
 * `imprint` on the PATH (this checkout's bin/imprint.js) and only the substitutions given.
 *
 *   npx tsx scripts/run-doc-blocks.ts docs/deploy.md walkthrough 8080=18080 8081=18081 ...
 *   npx tsx scripts/run-doc-blocks.ts README.md quickstart 8080=18080
 *
 * A number replaces that whole number (a port); anything else is replaced as text (a folder).
 * Whatever the blocks leave running is stopped at the end; the temporary HOME is kept and
 * printed, for reading the servers' logs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineNetworkEnv, markedBlocks, runScript, scriptOf, substitute, sweep, type Substitution } from '../test/helpers/doc-blocks.js';

const [file, marker, ...pairs] = process.argv.slice(2);
if (!file || !marker) throw new Error('usage: npx tsx scripts/run-doc-blocks.ts <file.md> <marker> [from=to ...]');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const substitutions = pairs.map((pair): Substitution => {
  const [from, to] = pair.split('=');
  return /^\d+$/.test(from) ? [Number(from), to] : [from, to];
});
const blocks = markedBlocks(fs.readFileSync(file, 'utf8'), marker).map((block) => ({ ...block, text: substitute(block.text, substitutions) }));
if (blocks.length === 0) throw new Error(`no block of ${file} is marked <!-- ${marker} -->`);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-doc-home-'));
const bin = path.join(home, '.imprint-bin');
fs.mkdirSync(bin);
fs.writeFileSync(path.join(bin, 'imprint'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, 'bin', 'imprint.js')}" "$@"\n`, { mode: 0o755 });
const runId = crypto.randomUUID();
const result = await runScript(scriptOf(blocks, file), {
  cwd: path.basename(file) === 'README.md' ? root : home,
  timeoutMs: 10 * 60_000,
  env: {
    ...machineNetworkEnv(),
    HOME: home,
    PATH: [bin, path.dirname(process.execPath), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':'),
    LANG: 'C.UTF-8',
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    IMPRINT_DOC_RUN: runId,
  },
});
process.stdout.write(result.output);
const stopped = await sweep({
  pidFiles: [{ file: path.join(home, 'imprint-nginx', 'nginx.pid'), signal: 'SIGTERM' }],
  markers: [['IMPRINT_DOC_RUN', runId], ['HOME', home]],
  graceMs: 30_000,
});
if (stopped.length) console.error(`stopped what the blocks left running: ${stopped.join(', ')}`);
console.error(`${result.code === 0 ? 'done' : `failed (${result.timedOut ? 'deadline' : `exit ${result.code ?? result.signal}`})`}; HOME was ${home}`);
process.exitCode = result.code === 0 ? 0 : 1;
