/**
 * The memory of a process and everything it started, from Linux's /proc: Chromium is a tree
 * (browser, GPU, network, one renderer per site), and the browser process alone is a small
 * part of what it holds. Resident set sizes are summed, so pages shared between the processes
 * count once per process: an upper bound, which is what an operator sizing a machine wants.
 * Elsewhere than Linux there is no /proc, and the answer is undefined.
 */
import fs from 'node:fs/promises';

export interface TreeMemory {
  /** Bytes resident in memory, summed over the tree. */
  rssBytes: number;
  processes: number;
}

/** The parent of each process, read from /proc/<pid>/stat (its fourth field). */
async function parents(): Promise<Map<number, number>> {
  const entries = await fs.readdir('/proc');
  const found = new Map<number, number>();
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        // A process may end between the listing and the read: it is simply not counted.
        const stat = await fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
        if (!stat) return;
        // The command name (field 2) is in parentheses and may itself contain spaces or ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        found.set(Number(name), Number(fields[1]));
      }),
  );
  return found;
}

async function residentBytes(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kilobytes ? Number(kilobytes) * 1024 : 0;
}

/** The memory of the trees rooted at `roots` (processes no longer running are left out). */
export async function treeMemory(roots: Iterable<number>): Promise<TreeMemory | undefined> {
  if (process.platform !== 'linux') return undefined;
  const parentOf = await parents();
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const inTree = new Set<number>();
  const pending = [...roots].filter((pid) => parentOf.has(pid));
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (inTree.has(pid)) continue;
    inTree.add(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  const sizes = await Promise.all([...inTree].map(residentBytes));
  return { rssBytes: sizes.reduce((sum, bytes) => sum + bytes, 0), processes: inTree.size };
}
