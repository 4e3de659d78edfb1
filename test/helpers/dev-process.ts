/**
 * `imprint dev` as a child process on a free port: resolved with the URL it prints once it
 * serves, rejected if it exits before that (with what it printed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, INPUTS } from './cli.js';

export interface DevProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

export function startDev(project: string, dataDir: string): Promise<DevProcess> {
  const child = spawn(process.execPath, [BIN, 'dev', project, '--port', '0'], {
    cwd: INPUTS,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`imprint dev exited with ${code} before serving:\n${output}`)));
  });
}

/** Ends `imprint dev` as Ctrl-C does and waits for it to exit (nothing to do if it never started or already ended). */
export async function stopDev(dev: DevProcess | undefined): Promise<void> {
  if (!dev || dev.child.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.child.once('exit', resolve));
  dev.child.kill('SIGINT');
  await exited;
}
