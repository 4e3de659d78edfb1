/** CPU of a process tree, from /proc (Linux). */
import fs from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * CPU ms of `pid` and every descendant, from /proc: utime + stime of each, and cutime + cstime,
 * the CPU of children already reaped. Chromium starts a print compositor process (a utility
 * process) for nearly every print, and it has exited by the time the pass ends: without the
 * reaped children's time, a pass would leave out that process's work.
 */
export function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    cpu.set(pid, ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

