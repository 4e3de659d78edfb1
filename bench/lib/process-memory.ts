/**
 * Memory of a whole process tree (this Node process and the Chromium it started): the sum of
 * each process's PSS, which shares pages fairly between processes (RSS would count Chromium's
 * shared libraries once per process). Linux only, from /proc.
 */
import fs from 'node:fs';
import pidtree from 'pidtree';

function pssKiB(pid: number): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0; // the process ended between listing and reading: it holds no memory now
  }
}

/** The whole tree, and the part of it that is the root process itself (Node). */
export async function treeMemoryMiB(root = process.pid): Promise<{ mib: number; rootMib: number; processes: number }> {
  const children = await pidtree(root);
  const rootKib = pssKiB(root);
  const kib = children.reduce((sum, pid) => sum + pssKiB(pid), rootKib);
  return { mib: kib / 1024, rootMib: rootKib / 1024, processes: children.length + 1 };
}
