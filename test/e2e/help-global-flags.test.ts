/** The installed CLI's --help: the global flags on every command, with serve's defaults and environment names; the guides it names are in the installed package. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, runCli } from '../helpers/cli.js';
import { installedImprint } from '../helpers/installed.js';

test('--help shows the global flags on every command (login names --api-url and --api-key)', async () => {
  const login = await runCli(['login', '--help']);
  assert.equal(login.code, 0, login.describe());
  assert.match(login.stdout.toString(), /Global Options:[\s\S]*--api-url <url>[\s\S]*--api-key <key>/);
  const serve = await runCli(['serve', '--help']);
  assert.match(serve.stdout.toString(), /Global Options:[\s\S]*--data-dir <dir>/);
  assert.match(serve.stdout.toString().replace(/\s+/g, ' '), /--job-lease <duration> .*?\(default: 2m, env: IMPRINT_JOB_LEASE\)/);
});

test('--help names the guides inside the installed package, and each guide a help text names is there', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0, help.describe());
  const folder = /Guides: (\S+)/.exec(help.stdout.toString())?.[1];
  assert.ok(folder, help.stdout.toString());
  assert.equal(folder, path.join(installedImprint().packageRoot, 'docs'), 'the folder of the package that runs');
  for (const guide of fs.readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md'))) assert.ok(fs.existsSync(path.join(folder, guide)), `${guide} is installed`);
  const named = new Set<string>();
  for (const command of [['serve'], ['render'], ['dev'], ['einvoice'], ['jobs'], ['team']]) {
    const text = (await runCli([...command, '--help'])).stdout.toString().replace(/\s+/g, ' ');
    for (const match of text.matchAll(/(\/\S+\/docs\/[\w-]+\.md)/g)) named.add(match[1]!);
  }
  assert.ok(named.size >= 3, `guides named in --help: ${[...named].join(', ')}`);
  for (const file of named) assert.ok(file.startsWith(folder) && fs.existsSync(file), `${file} exists in the installed package`);
});
