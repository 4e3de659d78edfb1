/**
 * One renderer per socket: the renderer that starts holds a lock file (created with O_EXCL,
 * its pid inside) for its whole life. Two CLIs that start renderers at the same instant
 * start two processes, but only one takes the lock; the other leaves at once and its CLI
 * connects to the winner. A lock whose pid is gone is a crash's leftover and is taken over.
 */
import fs from 'node:fs';

export function isAlive(pid: number): boolean {
  // 0 and negative pids name process groups, never one process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process exists, it is only not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in a lock file, if it holds one. */
export function lockHolder(lockPath: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when this process now holds the lock; false when a live process holds it. */
export function takeLock(lockPath: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = lockHolder(lockPath);
    // A lock being written this instant has no pid yet: its writer is alive.
    if (holder === undefined) {
      const age = Date.now() - (fs.statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 5_000) return false;
    } else if (isAlive(holder)) return false;
    // Stale: its renderer died without removing it. Rename first, so only one taker removes it.
    const grave = `${lockPath}.${process.pid}.stale`;
    try {
      fs.renameSync(lockPath, grave);
      fs.rmSync(grave, { force: true });
    } catch {
      // Another starter took it over first; try again to see who holds it now.
    }
  }
  return false;
}

/** Removes the lock if this process still holds it. */
export function releaseLock(lockPath: string): void {
  if (lockHolder(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
}
