/**
 * One Chromium process, started by us rather than by puppeteer.launch, so that it boots while
 * Puppeteer itself is still being loaded (~0.2 s of module loading that puppeteer.launch puts
 * before the spawn). It is driven over a pipe (--remote-debugging-pipe: no port a page could
 * reach), in its own process group so that a kill takes its renderers and zygote with it, and
 * with a profile folder of its own that is removed once it has exited. Should Node exit with
 * the browser still running (a crash, an uncaught error), the process group is killed and the
 * profile removed on the way out, as Puppeteer's launcher does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export interface ChromiumProcess {
  readonly child: ChildProcess;
  readonly profileDir: string;
  /** Chromium's end of the DevTools pipe: we write to fd 3 and read from fd 4. */
  readonly pipeWrite: Writable;
  readonly pipeRead: Readable;
  /** Resolves once the process has exited and its profile folder is gone. */
  readonly exited: Promise<void>;
  /** The last lines Chromium wrote to stderr, for an error message when it fails to start. */
  stderrTail(): string;
  /** SIGKILL to the whole process group (the browser, its zygote and renderers). */
  kill(): void;
}

const STDERR_TAIL_BYTES = 4096;
const running = new Set<ChromiumProcess>();
let exitHookInstalled = false;

/** Synchronous: the only kind of work Node still runs in its 'exit' event. */
function killAllOnExit(): void {
  for (const chromium of running) {
    chromium.kill();
    // The killed processes may still be writing for a moment: retried, as the async path is.
    fs.rmSync(chromium.profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  }
}

function removeProfile(dir: string): Promise<void> {
  // Retried, as Puppeteer does for its own profiles: a renderer may still be closing files.
  // A folder that still cannot be removed is disk clutter, never lost work: the failure ends here.
  return fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
}

export function spawnChromium(executablePath: string, args: readonly string[], profileDir: string, env?: Record<string, string | undefined>): ChromiumProcess {
  if (!exitHookInstalled) {
    process.once('exit', killAllOnExit);
    exitHookInstalled = true;
  }
  // Chromium's own temporary files (its singleton socket folder, org.chromium.Chromium.*) go
  // inside the profile, so they leave with it even when the browser is killed.
  const tmpDir = path.join(profileDir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const child = spawn(executablePath, [...args, '--remote-debugging-pipe', `--user-data-dir=${profileDir}`, 'about:blank'], {
    env: { ...(env ?? process.env), TMPDIR: tmpDir },
    // Its own process group (negative pid kills), as Puppeteer spawns it on POSIX.
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  let tail = '';
  // Read continuously: a full stderr pipe would block Chromium.
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_BYTES);
  });
  const exited = new Promise<void>((resolve) => {
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      running.delete(chromium);
      void removeProfile(profileDir).then(resolve);
    };
    child.once('exit', done);
    // A spawn that fails (no such file, not executable) emits 'error' and never 'exit'.
    child.once('error', done);
  });
  const chromium: ChromiumProcess = {
    child,
    profileDir,
    pipeWrite: child.stdio[3] as Writable,
    pipeRead: child.stdio[4] as Readable,
    exited,
    stderrTail: () => tail,
    kill() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch (error) {
        // ESRCH: the group is already gone, which is what the kill wanted.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    },
  };
  running.add(chromium);
  return chromium;
}
