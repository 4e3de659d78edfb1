/**
 * Clean-up that runs however a test process ends: a normal exit, an uncaught error, or a
 * SIGTERM/SIGINT/SIGHUP (the runner's per-file timeout sends SIGTERM before SIGKILL). The
 * hooks are synchronous (an 'exit' listener cannot wait): stop a cluster with spawnSync,
 * signal a child. A hook that throws does not keep the others from running.
 */
const hooks = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const hook of [...hooks]) {
    hooks.delete(hook);
    try {
      hook();
    } catch (error) {
      process.stderr.write(`exit hook failed: ${(error as Error).message}\n`);
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      runAll();
      // The default action, now that the clean-up is done: the process ends by that signal.
      process.kill(process.pid, signal);
    });
  }
}

/** Registers `hook` to run at exit; answers a function that unregisters it (call it once the thing is stopped). */
export function onExit(hook: () => void): () => void {
  install();
  hooks.add(hook);
  return () => hooks.delete(hook);
}
