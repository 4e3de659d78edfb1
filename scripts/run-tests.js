// Runs every test file under test/ (unit, store, contract, e2e, multinode: *.test.ts) with node's test runner
// and tsx. Node 20's --test does not expand globs itself, and a shell glob over a folder
// that is still empty would pass a literal pattern; this finds the files instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const groups = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'store', 'contract', 'e2e', 'multinode'];
const files = groups.flatMap((group) => {
  const dir = path.join('test', group);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join(dir, f)) : [];
});
if (files.length === 0) throw new Error(`No test files found under test/{${groups.join(',')}}`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
