/** The installed CLI's --help shows the global flags on every command, with serve's defaults and environment names. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';

test('--help shows the global flags on every command (login names --api-url and --api-key)', async () => {
  const login = await runCli(['login', '--help']);
  assert.equal(login.code, 0, login.describe());
  assert.match(login.stdout.toString(), /Global Options:[\s\S]*--api-url <url>[\s\S]*--api-key <key>/);
  const serve = await runCli(['serve', '--help']);
  assert.match(serve.stdout.toString(), /Global Options:[\s\S]*--data-dir <dir>/);
  assert.match(serve.stdout.toString().replace(/\s+/g, ' '), /--job-lease <duration> .*?\(default: 2m, env: IMPRINT_JOB_LEASE\)/);
});
