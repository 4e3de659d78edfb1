/**
 * The checkout guard (scripts/checkout-guard.mjs, issue 35) catches an installation that reads
 * the checkout: a read planted in a stand-in installation is refused and logged, and the test
 * runner fails a test file whose installation did it, naming the file read. The reads planted
 * are the ones issue 35 found: the colour profile from src/core/pdf/icc (what `--pdfa` read
 * before the package carried it) and a module of the checkout.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
// @ts-expect-error a plain JavaScript build script, without declarations
import { guardedEnv as untypedGuardedEnv } from '../../scripts/package-under-test.js';
import { ROOT, tempDir } from '../helpers/checkout.js';
import { installedImprint } from '../helpers/installed.js';

const guardedEnv = untypedGuardedEnv as (installDir: string, installed: object, logFile: string) => Record<string, string>;
const work = tempDir('imprint-guard-');
after(() => fs.rmSync(work, { recursive: true, force: true }));

const COLOUR_PROFILE = path.join(ROOT, 'src', 'core', 'pdf', 'icc', 'sRGB.icc');
const CHECKOUT_MODULE = path.join(ROOT, 'scripts', 'build-web.js');
const USER_INPUT = path.join(ROOT, 'templates-example', 'invoice', 'props.json');

/** A stand-in installation whose bin reads the checkout as an installed package must not. */
function plantedInstallation(): { dir: string; installed: ReturnType<typeof installedImprint> } {
  const dir = fs.mkdtempSync(path.join(work, 'install-'));
  const packageRoot = path.join(dir, 'prefix', 'lib', 'node_modules', 'imprint');
  fs.mkdirSync(path.join(packageRoot, 'bin'), { recursive: true });
  const bin = path.join(packageRoot, 'bin', 'imprint.js');
  fs.writeFileSync(
    bin,
    `import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const outcome = {};
try { fs.readFileSync(${JSON.stringify(COLOUR_PROFILE)}); outcome.profile = 'read'; } catch (error) { outcome.profile = error.code; }
outcome.exists = fs.existsSync(${JSON.stringify(COLOUR_PROFILE)});
try { await fs.promises.stat(${JSON.stringify(COLOUR_PROFILE)}); outcome.stat = 'read'; } catch (error) { outcome.stat = error.code; }
try { await import(pathToFileURL(${JSON.stringify(CHECKOUT_MODULE)}).href); outcome.module = 'loaded'; } catch (error) { outcome.module = error.code; }
outcome.userInput = JSON.parse(fs.readFileSync(${JSON.stringify(USER_INPUT)}, 'utf8')) ? 'read' : 'unexpected';
console.log(JSON.stringify(outcome));
`,
  );
  const installed = { ...installedImprint(), packageRoot, bin, guard: path.join(ROOT, 'scripts', 'checkout-guard.mjs') };
  fs.writeFileSync(path.join(dir, 'installed.json'), JSON.stringify(installed));
  return { dir, installed };
}

test('in an installed package, reads and module loads under the checkout are refused and logged; the user input in it stays readable', () => {
  const { dir, installed } = plantedInstallation();
  const log = path.join(dir, 'guard.log');
  const ran = spawnSync(process.execPath, [installed.bin], { env: { ...process.env, ...guardedEnv(dir, installed, log) }, encoding: 'utf8', timeout: 60_000 });
  assert.equal(ran.status, 0, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { profile: 'EACCES', exists: false, stat: 'EACCES', module: 'EACCES', userInput: 'read' });
  const found = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { operation: string; file: string });
  const named = found.map(({ operation, file }) => `${operation} ${path.relative(ROOT, file)}`);
  assert.deepEqual(named.slice(0, 3), ['readFileSync src/core/pdf/icc/sRGB.icc', 'existsSync src/core/pdf/icc/sRGB.icc', 'stat src/core/pdf/icc/sRGB.icc']);
  // The module load is refused where Node's loader first touches the file (its realpath), or by the resolve hook.
  assert.equal(named.length, 4, named.join('\n'));
  assert.match(named[3], /^(realpathSync|import) scripts\/build-web\.js$/);
});

test('the same script run as the tests run (not from an installation) is not guarded', () => {
  const { dir, installed } = plantedInstallation();
  const outside = path.join(work, 'not-installed.mjs');
  fs.copyFileSync(installed.bin, outside);
  const log = path.join(dir, 'guard.log');
  const ran = spawnSync(process.execPath, [outside], { env: { ...process.env, ...guardedEnv(dir, installed, log) }, encoding: 'utf8', timeout: 60_000 });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(JSON.parse(ran.stdout).profile, 'read');
  assert.equal(fs.existsSync(log), false, 'nothing logged');
});

test('the test runner fails a test file whose installation read the checkout, naming what it read', () => {
  const { dir, installed } = plantedInstallation();
  const planted = path.join(work, 'planted-read.test.ts');
  fs.writeFileSync(
    planted,
    `import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
test('runs the installed imprint', () => { execFileSync(process.execPath, [${JSON.stringify(installed.bin)}], { stdio: 'ignore' }); });
`,
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('IMPRINT_TEST_GUARD') && name !== 'NODE_OPTIONS' && name !== 'NODE_TEST_CONTEXT'));
  const ran = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-tests.js'), planted], { cwd: ROOT, env: { ...env, IMPRINT_TEST_INSTALL: dir }, encoding: 'utf8', timeout: 180_000 });
  assert.equal(ran.status, 1, `${ran.stdout}\n${ran.stderr}`);
  assert.match(ran.stderr, /the installed package touched the checkout 4 time\(s\)/);
  assert.match(ran.stderr, new RegExp(`readFileSync ${COLOUR_PROFILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.match(ran.stderr, /planted-read\.test\.ts: exit checkout read/);
  // The file's own test passed: only the guard failed it.
  assert.match(ran.stdout, /ℹ pass 1/);
});
