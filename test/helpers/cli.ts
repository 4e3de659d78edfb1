/**
 * Runs the real CLI as a child process, the way a user's shell does, with its own data folder:
 * the package under test, this checkout packed and installed outside it (installed.ts), not the
 * checkout's bin/ and dist/. Output is captured and shown only in a failing assertion's message.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './checkout.js';
import { installedImprint } from './installed.js';

export { ROOT, tempDir } from './checkout.js';
/** The installed package's bin/imprint.js (installed.ts). */
export const BIN = installedImprint().bin;
/**
 * The tests' input files (templates-example/, test/'s fixtures) as a user has them: copied
 * outside the checkout (installed.ts). The CLI runs there by default, so a relative
 * `templates-example/invoice/Invoice.tsx` names the copy.
 */
export const INPUTS = installedImprint().inputs;
export const EXAMPLES = path.join(INPUTS, 'templates-example');

export interface CliResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** For assertion messages: what the CLI said. */
  describe(): string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  timeoutMs?: number;
  /** Another build's bin/imprint.js (renderer.test.ts runs a copy of dist/). */
  bin?: string;
}

/**
 * Tests never see the developer's own login or mode: a logged-in developer would otherwise
 * run the embedded tests against their remote API.
 */
const ISOLATED_ENV: Record<string, string | undefined> = {
  CI: 'true',
  FORCE_COLOR: '0',
  IMPRINT_API_URL: undefined,
  IMPRINT_API_KEY: undefined,
  IMPRINT_MODE: undefined,
  IMPRINT_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-config-')),
  // Each CLI renders in its own process, as every test before the warm renderer assumed: a
  // background renderer would outlive the test that started it. The renderer's own tests
  // (renderer.test.ts) turn it on, each in a runtime folder of its own, and stop it.
  IMPRINT_RENDERER: 'off',
};

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
      cwd: options.cwd ?? INPUTS,
      env: { ...process.env, ...ISOLATED_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out);
      resolve({
        code,
        stdout,
        stderr: err,
        describe: () => `imprint ${args.join(' ')}\nexit ${code}\nstderr:\n${err}\nstdout (${stdout.length} bytes):\n${stdout.subarray(0, 2000).toString()}`,
      });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A CLI bound to one temporary data folder, as one user's machine would be. */
export function cliWithDataDir(dataDir = tempDir()) {
  return {
    dataDir,
    run: (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { IMPRINT_DATA_DIR: dataDir, ...options.env } }),
  };
}
