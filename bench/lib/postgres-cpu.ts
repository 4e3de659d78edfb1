/**
 * CPU of a throwaway PostgreSQL cluster's processes (the postmaster and every process under it:
 * the backends serving the service's connections, the WAL writer, the checkpointer...), from
 * /proc: the server's share of the 2 cores a job row runs on, which the service's own CPU does
 * not show. Linux only. The cluster is found by its port (test/helpers/postgres.ts starts it
 * with `-p <port>`).
 */
import fs from 'node:fs';

const TICK = 100; // USER_HZ: /proc's clock ticks per second

/** utime + stime; with `reaped`, plus the CPU of the children it has reaped (the postmaster: backends that ended). */
function ticksOf(pid: number, reaped: boolean): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The postmaster of the cluster listening on the URL's port. */
export function postmasterOf(databaseUrl: string): number {
  const port = new URL(databaseUrl).port;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!/\/postgres$/.test(argv[0] ?? '')) continue;
    const at = argv.indexOf('-p');
    if (at >= 0 && argv[at + 1] === port) return Number(entry);
  }
  throw new Error(`no postgres process listening on port ${port}`);
}

/** What a process is, by its title: "postgres: walwriter" -> "walwriter", a connection's ("postgres: user db 127.0.0.1(4242) idle") -> "backends". */
function kindOf(pid: number): string {
  let title = '';
  try {
    title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return 'ended';
  }
  return /\d+\.\d+\.\d+\.\d+\(\d+\)/.test(title) ? 'backends' : title.replace(/^postgres:\s*/, '');
}

/**
 * Samples the cluster's process tree every 50 ms; `stop()` answers the CPU ms used since the
 * watch began, in all and by kind of process. A backend that ends while watched is counted
 * twice (its last sample and the postmaster's reaped time): the service's pooled connections
 * live through the watch.
 */
export function watchPostgres(databaseUrl: string) {
  const root = postmasterOf(databaseUrl);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const kinds = new Map<number, string>();
  const started = new Set<number>();
  let watching = false;
  const sample = () => {
    for (const pid of [root, ...childrenOf(root)]) {
      const ticks = ticksOf(pid, pid === root);
      if (ticks === undefined) continue;
      if (!first.has(pid)) {
        // A process that starts while watched is counted from zero.
        first.set(pid, pid === root ? ticks : 0);
        if (watching) started.add(pid);
      }
      // Named by its last title (a process just forked still has the postmaster's).
      const kind = pid === root ? 'postmaster' : kindOf(pid);
      if (kind !== 'ended') kinds.set(pid, kind);
      last.set(pid, ticks);
    }
  };
  sample();
  // One already running at the start is counted from then.
  for (const pid of first.keys()) first.set(pid, last.get(pid)!);
  watching = true;
  const timer = setInterval(sample, 50);
  return {
    /** `byKind`: "backends" are the connections' processes, "new backends" those that connected while watched (a pool that grew: each pays its start and prepares its statements again). */
    stop(): { ms: number; byKind: Record<string, number>; started: number } {
      sample();
      clearInterval(timer);
      let ms = 0;
      const byKind: Record<string, number> = {};
      for (const [pid, value] of last) {
        const used = ((value - first.get(pid)!) * 1000) / TICK;
        ms += used;
        const kind = `${started.has(pid) ? 'new ' : ''}${kinds.get(pid) ?? 'ended'}`;
        byKind[kind] = (byKind[kind] ?? 0) + used;
      }
      return { ms, byKind, started: started.size };
    },
  };
}
