/**
 * The package under test (issue 35): this checkout packed and installed globally into a prefix
 * outside it, as a user installs it. scripts/run-tests.js installs it once per run and names it
 * in IMPRINT_TEST_INSTALL (with the checkout guard in every process: scripts/checkout-guard.mjs);
 * a test file run on its own (`node --import tsx --test file`) installs one for itself, once per
 * process, unguarded. Every test that spawns `imprint` spawns this installation's bin.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Installed {
  /** The tarball `npm pack` made of the checkout. */
  tarball: string;
  /** The installed package's folder: <prefix>/lib/node_modules/imprint. */
  packageRoot: string;
  /** Its bin/imprint.js, what `imprint` on the user's PATH runs. */
  bin: string;
  /** The global prefix it was installed into (<prefix>/bin/imprint is the command). */
  prefix: string;
  /** A copy of templates-example/ and test/ outside the checkout: what tests hand the CLI as a user's files. */
  inputs: string;
}

const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let installed: Installed | undefined;

export function installedImprint(): Installed {
  if (installed) return installed;
  let dir = process.env.IMPRINT_TEST_INSTALL;
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-under-test-'));
    execFileSync(process.execPath, [path.join(CHECKOUT, 'scripts', 'package-under-test.js'), dir], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 20 * 60_000 });
    // Later children of this process (a test spawning a test runner) reuse it.
    process.env.IMPRINT_TEST_INSTALL = dir;
  }
  installed = JSON.parse(fs.readFileSync(path.join(dir, 'installed.json'), 'utf8')) as Installed;
  return installed;
}
