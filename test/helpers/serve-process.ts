/**
 * `imprint serve` (the built CLI) as an operator runs it: a child process on its own data
 * folder and its own TMPDIR (so what its browsers leave in temp can be counted), started with
 * `--port 0` unless a port is given, ready once it has said where it listens and how many
 * renders it takes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT, tempDir } from './cli.js';

export interface ServeProcess {
  /** Where it listens, from its start-up line. */
  url: string;
  port: number;
  /** Its pool, from its start-up line: renders at once, renders that may wait. */
  pool: { concurrency: number; maxQueue: number };
  child: ChildProcess;
  dataDir: string;
  /** The TMPDIR the service and its browsers were started with. */
  tmpDir: string;
  /** Everything it printed so far (stdout and stderr), for assertion messages. */
  output(): string;
  /** Resolves when the process has exited, with its code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  dataDir?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
}

export function startServeProcess(options: ServeOptions = {}): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? tempDir('imprint-serve-');
  const tmpDir = tempDir('imprint-serve-tmp-');
  const args = options.args ?? [];
  const port = args.includes('--port') ? [] : ['--port', '0'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...port, '--log-level', 'warn', ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_DATA_DIR: dataDir, TMPDIR: tmpDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      const pool = /Renders: (\d+) at once, (\d+) more may wait/.exec(output);
      if (listening && pool && !started) {
        started = true;
        resolve({
          url: listening[1],
          port: Number(new URL(listening[1]).port),
          pool: { concurrency: Number(pool[1]), maxQueue: Number(pool[2]) },
          child,
          dataDir,
          tmpDir,
          output: () => output,
          exited,
          stop: async () => {
            child.kill('SIGTERM');
            return (await exited).code;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', reject);
    void exited.then(({ code, signal }) => {
      if (!started) reject(new Error(`imprint serve exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}
