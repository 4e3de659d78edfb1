/**
 * `imprint serve` (the built CLI) as an operator runs it: a child process on its own data
 * folder and its own TMPDIR (so what its browsers leave in temp can be counted), started with
 * `--port 0` unless a port is given, ready once it has said where it listens and how many
 * renders it takes.
 *
 * A start has a deadline (IMPRINT_TEST_START_DEADLINE_MS, 60 s by default): a node that never
 * listens is killed and the test fails within it, with the node's log in the message. A node
 * still running when the test process ends is sent SIGTERM (exit-hooks.ts); kill() ends one as
 * a lost machine does, its browsers too (Puppeteer starts them in their own process group, so
 * they would outlive it as orphans).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pidtree from 'pidtree';
import { BIN, INPUTS, tempDir } from './cli.js';
import { onExit } from './exit-hooks.js';

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
  /** What it printed on stdout alone: its log, one JSON line each (apart from stderr's notes, so never interleaved with them). */
  stdout(): string;
  /** Resolves when the process has exited, with its code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  /** The processes under it now (its browsers): taken before a kill it does not do itself. */
  descendants(): Promise<number[]>;
  /** SIGKILL to it and its browsers, no shutdown of any kind; resolves once it has exited. */
  kill(): Promise<void>;
}

export interface ServeOptions {
  dataDir?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  /** How long it may take to listen; default IMPRINT_TEST_START_DEADLINE_MS or 60 s. */
  startDeadlineMs?: number;
}

export const START_DEADLINE_MS = Number(process.env.IMPRINT_TEST_START_DEADLINE_MS ?? 60_000);

export async function descendantsOf(pid: number | undefined): Promise<number[]> {
  if (pid === undefined) return [];
  try {
    return await pidtree(pid);
  } catch (error) {
    if (/No matching pid/i.test((error as Error).message)) return [];
    throw error;
  }
}

/** SIGKILL to each pid that is still there (a process gone already is what was wanted). */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

export function startServeProcess(options: ServeOptions = {}): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? tempDir('imprint-serve-');
  const tmpDir = tempDir('imprint-serve-tmp-');
  const args = options.args ?? [];
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const deadlineMs = options.startDeadlineMs ?? START_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...port, '--log-level', 'warn', ...args], {
      cwd: INPUTS,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_DATA_DIR: dataDir, TMPDIR: tmpDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const running = () => child.exitCode === null && child.signalCode === null;
    // SIGTERM: it closes its browsers itself on the way out.
    const forget = onExit(() => {
      if (running()) child.kill('SIGTERM');
    });
    let output = '';
    let stdout = '';
    let started = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => {
        forget();
        done({ code, signal });
      }),
    );
    // Set by stop() and kill(): any other exit of a started node is a crash the test may only
    // see as a refused connection later, so it is told here, with the node's log.
    let exitAsked = false;
    const kill = async () => {
      exitAsked = true;
      const browsers = await descendantsOf(child.pid);
      if (running()) child.kill('SIGKILL');
      await exited;
      killAll(browsers);
    };
    let late = false;
    const deadline = setTimeout(() => {
      if (started) return;
      late = true;
      reject(new Error(`imprint serve ${args.join(' ')} (pid ${child.pid}, data folder ${dataDir}) did not listen within ${deadlineMs} ms (killed, with its browsers); its log:\n${output || '(nothing)'}`));
      void kill();
    }, deadlineMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      const pool = /Renders: (\d+) at once, (\d+) more may wait/.exec(output);
      if (listening && pool && !started) {
        started = true;
        clearTimeout(deadline);
        resolve({
          url: listening[1],
          port: Number(new URL(listening[1]).port),
          pool: { concurrency: Number(pool[1]), maxQueue: Number(pool[2]) },
          child,
          dataDir,
          tmpDir,
          output: () => output,
          stdout: () => stdout,
          exited,
          stop: async () => {
            exitAsked = true;
            if (running()) child.kill('SIGTERM');
            return (await exited).code;
          },
          descendants: () => descendantsOf(child.pid),
          kill,
        });
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onData(chunk);
    });
    child.stderr!.on('data', onData);
    child.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(deadline);
      if (!started && !late) reject(new Error(`imprint serve exited (${code ?? signal}) before listening:\n${output}`));
      else if (started && !exitAsked) console.log(`# imprint serve ${args.join(' ')} exited by itself (${code ?? signal}); its log:\n${output || '(nothing)'}`.replaceAll('\n', '\n# '));
    });
  });
}
