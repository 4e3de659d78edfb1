/** Where the tests' own files are: the checkout (what a test hands the CLI as input is a copy outside it: cli.ts INPUTS). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function tempDir(prefix = 'imprint-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
