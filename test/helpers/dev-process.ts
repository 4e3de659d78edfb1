/**
 * `imprint dev` as a child process on a free port: resolved with the URL it prints once it
 * serves, rejected if it exits before that (with what it printed) or does not serve in time
 * (then it is killed). What it prints can be waited for, each wait with its own deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, INPUTS } from './cli.js';

export interface DevProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** A start on a busy 2-core machine: Chromium is not launched before the URL is printed, so this is generous. */
const START_DEADLINE_MS = 60_000;
const STOP_DEADLINE_MS = 60_000;

export function startDev(project: string, dataDir: string, timeoutMs = START_DEADLINE_MS): Promise<DevProcess> {
  const child = spawn(process.execPath, [BIN, 'dev', project, '--port', '0'], {
    cwd: INPUTS,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`imprint dev did not serve within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url) {
        clearTimeout(deadline);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`imprint dev exited with ${code} before serving:\n${output}`));
    });
  });
}

/**
 * The first match of `pattern` in what dev printed from offset `from` on (a length of its
 * output, taken before the change that should make it print): at once if it is there, else
 * as it is printed. Rejects when dev exits first or `timeoutMs` passes.
 */
export function waitForOutput(dev: DevProcess, pattern: RegExp, from: number, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => pattern.exec(dev.output().slice(from));
    const done = (settle: () => void) => {
      clearTimeout(deadline);
      dev.child.stdout!.off('data', onData);
      dev.child.stderr!.off('data', onData);
      dev.child.off('exit', onExit);
      settle();
    };
    // The helper's own listener (startDev's) appends the chunk first: it was registered first.
    const onData = () => {
      const match = check();
      if (match) done(() => resolve(match));
    };
    const onExit = (code: number | null) => done(() => reject(new Error(`imprint dev exited with ${code} before printing ${pattern}:\n${dev.output()}`)));
    const deadline = setTimeout(() => done(() => reject(new Error(`imprint dev did not print ${pattern} within ${timeoutMs} ms:\n${dev.output()}`))), timeoutMs);
    dev.child.stdout!.on('data', onData);
    dev.child.stderr!.on('data', onData);
    dev.child.once('exit', onExit);
    onData();
  });
}

/**
 * Ends `imprint dev` as Ctrl-C does and waits for it to exit (nothing to do if it never started
 * or already ended); answers its exit code. Past the deadline it is killed and this rejects.
 */
export async function stopDev(dev: DevProcess | undefined, timeoutMs = STOP_DEADLINE_MS): Promise<number | null> {
  if (!dev || dev.child.exitCode !== null || dev.child.signalCode !== null) return dev?.child.exitCode ?? null;
  const exited = new Promise<number | null>((resolve) => dev.child.once('exit', resolve));
  dev.child.kill('SIGINT');
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => {
      dev.child.kill('SIGKILL');
      reject(new Error(`imprint dev did not stop within ${timeoutMs} ms of Ctrl-C:\n${dev.output()}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(deadline);
  }
}
