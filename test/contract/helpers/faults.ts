/**
 * What the fault tests (faults-*.test.ts) share. The service as an operator runs it:
 * `imprint serve` (the built CLI, dist/) as a child process on its own data folder and its own
 * TMPDIR, so the temp folders its browsers leave (or do not leave) can be counted without other
 * tests' folders getting in the way; HTTP calls to it. And the process-level probes: the
 * Chromium processes under a pid, zombies, processes burning CPU, profile folders in a temp dir.
 */
import fs from 'node:fs';
import pidtree from 'pidtree';
import { request } from 'undici';
import { openStore } from '../../../src/core/store/index.js';
import { tempDir } from '../../helpers/cli.js';
import { replyOf, type Reply } from './service.js';

export type { ServeProcess } from '../../helpers/serve-process.js';
export { startServeProcess } from '../../helpers/serve-process.js';
import type { ServeProcess } from '../../helpers/serve-process.js';

/** A data folder with one team and its API key, written as the operator commands would. */
export async function dataDirWithTeam(team = 'acme', dataDir = tempDir('imprint-faults-')): Promise<{ dataDir: string; key: string }> {
  const store = openStore({ dataDir });
  try {
    await store.createTeam(team);
    return { dataDir, key: (await store.createApiKey(team)).key };
  } finally {
    await store.close();
  }
}

/** The exit of a service that was told to stop; SIGKILL (and a result that says so) past `graceMs`. */
export async function waitForExit(serve: ServeProcess, graceMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const outcome = await Promise.race([serve.exited, late]);
  clearTimeout(timer);
  if (outcome !== 'late') return outcome;
  serve.child.kill('SIGKILL');
  return serve.exited;
}

/** SIGTERM (once: a second one ends the service at once), then its exit. */
export async function stopServe(serve: ServeProcess, graceMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = performance.now();
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
  return { ...(await waitForExit(serve, graceMs)), ms: performance.now() - started };
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** One letter: R, S, D, Z... */
  state: string;
  comm: string;
  cmdline: string;
}

/** A process as /proc describes it; undefined once it is gone (reaped). */
export function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may contain spaces or parentheses itself.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      // a zombie has no command line
    }
    return { pid, ppid: Number(ppid), state: state!, comm, cmdline };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
    throw error;
  }
}

const isChromium = (info: ProcInfo) => /chrom/i.test(info.comm) || /chrom/i.test(info.cmdline.split(' ')[0] ?? '');

/** The Chromium processes under `rootPid` (browser, zygotes, renderers, GPU, utilities). */
export async function chromiumUnder(rootPid: number): Promise<ProcInfo[]> {
  let pids: number[];
  try {
    pids = await pidtree(rootPid);
  } catch (error) {
    // pidtree says "No matching pid found" once the root itself is gone.
    if (/No matching pid/i.test((error as Error).message)) return [];
    throw error;
  }
  return pids.map(procInfo).filter((info): info is ProcInfo => info !== undefined && isChromium(info));
}

/**
 * The main browser processes under `rootPid`: Chromium processes started without `--type=`.
 * Judged by the command line the process runs (its argv[0] is Chromium), not by its name: a
 * child caught between fork and exec carries Chromium's name with an empty or not yet
 * replaced command line, and without `--type=` it would pass for a second browser.
 */
export async function browsersUnder(rootPid: number): Promise<ProcInfo[]> {
  const chromium = await chromiumUnder(rootPid);
  // A fork not yet exec'd still shows its parent's command line, so a browser's own child is
  // told apart by its parent: the service starts browsers, browsers start helpers.
  const chromiumPids = new Set(chromium.map((info) => info.pid));
  return chromium.filter((info) => isMainBrowser(info) && !chromiumPids.has(info.ppid));
}

export function isMainBrowser(info: ProcInfo): boolean {
  return info.state !== 'Z' && /chrom/i.test(info.cmdline.split(' ')[0] ?? '') && !/ --type=/.test(info.cmdline);
}

/** When a process started, in clock ticks since boot (stat(5) field 22); undefined once it is gone. */
export function startTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return undefined;
  }
}

/** Every zombie Chromium process on the machine, whoever its parent. */
export function chromiumZombies(): ProcInfo[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => procInfo(Number(name)))
    .filter((info): info is ProcInfo => info !== undefined && info.state === 'Z' && /chrom/i.test(info.comm));
}

/** The browser profile folders in a temp dir: ours (imprint-profile-*) and Puppeteer's. */
export function profileDirs(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.startsWith('imprint-profile-') || name.startsWith('puppeteer_dev_chrome_profile-'));
}

export const alive = (pid: number) => {
  const info = procInfo(pid);
  return info !== undefined && info.state !== 'Z';
};

/** Polls `check` every 50 ms for up to `ms`; answers whether it became true. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = performance.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One HTTP request to a service, the whole answer read (the shape service.ts's call() answers). */
export async function callService(baseUrl: string, method: string, urlPath: string, options: { key?: string; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await request(`${baseUrl}${urlPath}`, {
    method: method as 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return replyOf(response);
}

/** CPU time (user + system, in clock ticks) a process has used so far. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks per second. */
const TICKS_PER_SECOND = 100;

/**
 * The Chromium processes under `rootPid` that kept more than `share` of a core busy over
 * `sampleMs`: a page still spinning in `while (true) {}` shows up here.
 */
export async function spinningChromium(rootPid: number, sampleMs = 400, share = 0.6): Promise<{ pid: number; cmdline: string; share: number }[]> {
  const before = new Map((await chromiumUnder(rootPid)).map((info) => [info.pid, { info, ticks: cpuTicks(info.pid) }]));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const seconds = (performance.now() - started) / 1000;
  const busy: { pid: number; cmdline: string; share: number }[] = [];
  for (const [pid, { info, ticks }] of before) {
    const now = cpuTicks(pid);
    if (ticks === undefined || now === undefined) continue;
    const used = (now - ticks) / TICKS_PER_SECOND / seconds;
    if (used > share) busy.push({ pid, cmdline: info.cmdline.slice(0, 120), share: Math.round(used * 100) / 100 });
  }
  return busy;
}
