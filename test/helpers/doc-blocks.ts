/**
 * Runs a markdown guide's shell blocks as a reader would copy them: the fenced `sh` blocks
 * marked `<!-- <marker> -->` on the line before, in order, in one bash (so variables and
 * functions carry from block to block), in a temporary HOME, with only the substitutions the
 * guide itself names (its ports and folders). Used by test/e2e/deploy-guide.test.ts and
 * test/e2e/readme-quickstart.test.ts, and by hand:
 *
 *   npx tsx scripts/run-doc-blocks.ts docs/deploy.md walkthrough
 *
 * Everything the blocks start is stopped by `sweep`: the servers by their pid files, then every
 * process whose environment carries the run's own marker variable or its HOME, whatever
 * happened to the script.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './pid-exit.js';

export interface DocBlock {
  /** 1-based line of the opening fence, for messages. */
  line: number;
  text: string;
}

/** The fenced blocks marked `<!-- marker -->` on the line before their fence, in order: shell blocks unless other languages are named (`['js']`). */
export function markedBlocks(markdown: string, marker: string, languages: readonly string[] = ['sh', 'bash']): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== `<!-- ${marker} -->`) continue;
    const fence = lines[i + 1] ?? '';
    if (!languages.includes(/^```(\w*)\s*$/.exec(fence)?.[1] ?? '')) throw new Error(`line ${i + 1}: <!-- ${marker} --> is not followed by a \`\`\`${languages[0]} block`);
    const end = lines.findIndex((line, at) => at > i + 1 && line.startsWith('```'));
    if (end < 0) throw new Error(`line ${i + 2}: the block is never closed`);
    blocks.push({ line: i + 2, text: lines.slice(i + 2, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** A number (a port) as a whole number only, or a literal string (a path). */
export type Substitution = readonly [from: string | number, to: string | number];

export function substitute(text: string, substitutions: readonly Substitution[]): string {
  // The numbers in one pass: a new port may equal an old one replaced later (8080 -> 8081).
  const numbers = new Map(substitutions.filter(([from]) => typeof from === 'number').map(([from, to]) => [String(from), String(to)]));
  let out = numbers.size ? text.replace(new RegExp(`(?<![0-9])(${[...numbers.keys()].join('|')})(?![0-9])`, 'g'), (found) => numbers.get(found)!) : text;
  for (const [from, to] of substitutions) if (typeof from === 'string') out = out.split(from).join(String(to));
  return out;
}

/**
 * One bash script: stops at the first failing command (set -e, pipefail), naming the block's
 * line in the guide, and prints a header before each block so the output reads as the guide.
 */
export function scriptOf(blocks: readonly DocBlock[], source: string): string {
  const body = blocks.map((block) => `DOC_LINE=${block.line}\necho "### ${source}:${block.line}"\n${block.text}\n`).join('\n');
  return `set -euo pipefail\nDOC_LINE=0\ntrap 'echo "### FAILED: the block at ${source}:$DOC_LINE (exit $?)" >&2' ERR\n${body}\necho "### DONE"\n`;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  timedOut: boolean;
}

/** Runs the script with bash in its own process group; past the deadline the group is killed. */
export function runScript(script: string, options: { cwd: string; env: Record<string, string>; timeoutMs: number; logFile?: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const log = options.logFile ? fs.createWriteStream(options.logFile) : undefined;
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      log?.write(chunk);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log?.end();
      resolve({ code, signal, output, timedOut });
    });
  });
}

/** The pids of every process whose environment holds `name=value` (read from /proc). */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = Buffer.from(`\0${name}=${value}\0`);
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = fs.readFileSync(path.join('/proc', entry, 'environ'));
      if (Buffer.concat([Buffer.from([0]), environ]).includes(wanted)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** A server's pid file, and the signal that stops it at once (PostgreSQL: SIGQUIT, nginx: SIGTERM). */
export interface PidFile {
  file: string;
  signal: NodeJS.Signals;
}

/**
 * Stops what a run left behind: the servers named by pid files (nginx and PostgreSQL write
 * their own, and both rewrite their environment block for their process titles, so /proc
 * cannot find them; their workers follow their master), then every process still carrying
 * one of the run's markers (its own variable, its HOME), with SIGKILL: the run is over. Answers what it had to stop, for the
 * test's message.
 */
export async function sweep(options: { pidFiles: PidFile[]; markers: [string, string][]; deadlineMs?: number; graceMs?: number }): Promise<string[]> {
  // Chromium keeps HOME but not other variables (src/core/browser-env.ts): a run's HOME is a marker too.
  const left = () => [...new Set(options.markers.flatMap(([name, value]) => processesWithEnv(name, value)))];
  const stopped: string[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
  // A process the run has just sent SIGTERM (a node finishing its renders) may exit by itself.
  const grace = Date.now() + (options.graceMs ?? 0);
  while (Date.now() < grace && left().length > 0) await pause();
  const deadline = Date.now() + (options.deadlineMs ?? 20_000);
  for (const { file, signal } of options.pidFiles) {
    if (!fs.existsSync(file)) continue;
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0].trim());
    if (!Number.isInteger(pid) || pid <= 1 || !isAlive(pid)) continue;
    process.kill(pid, signal);
    stopped.push(`${path.basename(file)} (${pid})`);
    while (isAlive(pid) && Date.now() < deadline) await pause();
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  for (;;) {
    const pids = left();
    if (pids.length === 0) return stopped;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        stopped.push(`a process of the run (${pid})`);
      } catch {
        // gone meanwhile
      }
    }
    if (Date.now() > deadline) throw new Error(`processes of the run still there after the sweep: ${pids.join(', ')}`);
    await pause();
  }
}

/**
 * The machine's own network settings, which a reader's shell has too and the blocks' npm needs
 * to reach the registry when its cache lacks a package: a proxy, extra certificate
 * authorities. Not substitutions of the guide's: the same on every line.
 */
export function machineNetworkEnv(): Record<string, string> {
  const names = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
}
