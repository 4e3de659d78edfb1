/**
 * bin/imprint.js on a Node older than Imprint supports (20, past its end of life) says which Node
 * it needs and stops, instead of failing further in on what that Node lacks. Run with the
 * machine's own node when it is that old (Debian 12's is 20); skipped, saying so, where none is.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BIN, INPUTS, ROOT } from '../helpers/cli.js';

const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((file) => {
  if (!fs.existsSync(file)) return false;
  const version = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 }).stdout.trim();
  return Number(version.split('.')[0]) < 22;
});

test('on Node 20 imprint names the Node it needs and exits 2, for every command', { skip: OLD_NODE ? false : 'no Node older than 22 on this machine', timeout: 60_000 }, () => {
  const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  for (const args of [['--version'], ['render', 'x.tsx'], ['serve']]) {
    const ran = spawnSync(OLD_NODE!, [BIN, ...args], { cwd: INPUTS, encoding: 'utf8', timeout: 30_000 });
    assert.equal(ran.status, 2, ran.stderr);
    assert.equal(ran.stdout, '');
    assert.ok(ran.stderr.includes(`Imprint needs Node ${engines.node}`), ran.stderr);
    assert.match(ran.stderr, /this is Node 2\d\.|this is Node 1\d\./);
  }
});
