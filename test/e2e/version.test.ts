/**
 * One version, read from package.json: `imprint --version`, the client's User-Agent and the
 * Creator/Producer of a PDF all say it (issue 21: `npm version` keeps them in step).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';

const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('--version is package.json\'s version', async () => {
  for (const flag of ['--version', '-V']) {
    const result = await runCli([flag]);
    assert.equal(result.stdout.toString().trim(), version, result.describe());
  }
});

test('the client\'s User-Agent names the version and the Node that runs it', { timeout: 60_000 }, async () => {
  const agents: string[] = [];
  const server = http.createServer((request, response) => {
    agents.push(request.headers['user-agent'] ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ templates: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runCli(['list', '--remote', '--api-url', url, '--api-key', 'imp_test', '--json']);
    assert.equal(result.code, 0, result.describe());
    assert.deepEqual(agents, [`imprint/${version} node/${process.versions.node}`]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a PDF\'s Creator and Producer name the version', { timeout: 120_000 }, async () => {
  const dir = tempDir();
  const out = path.join(dir, 'x.pdf');
  const result = await runCli(['generate', '--html', '-', '-o', out, '--embedded'], { stdin: '<h1>Version</h1>', env: { IMPRINT_DATA_DIR: dir } });
  assert.equal(result.code, 0, result.describe());
  const info = execFileSync('pdfinfo', [out], { encoding: 'utf8' });
  assert.match(info, new RegExp(`Creator:\\s+Imprint ${version.replaceAll('.', '\\.')}\\n`));
  assert.match(info, new RegExp(`Producer:\\s+Imprint ${version.replaceAll('.', '\\.')}[ \\n]`));
});
