/**
 * `npx tsx bench/node-size.ts [concurrency...]` (default 1 2 4): what one `imprint serve` node
 * costs in memory at each --concurrency, for sizing nodes (docs/deploy.md, Sizing a node). For
 * each setting it starts a node on a data folder of its own, keeps that many clients rendering
 * the example invoice (2 pages, different props each) for ROUNDS documents per client, and
 * samples the memory of the node's whole process tree (Node and every Chromium process) every
 * 200 ms: PSS (shared pages shared out fairly, what the machine really spends) and RSS summed
 * (what `ps` and most dashboards show, counting shared libraries once per process). Not a test:
 * it measures and prints.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pidtree from 'pidtree';
import { encodeArtifact } from '../src/core/artifact.js';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { openStore } from '../src/core/store/index.js';
import { BIN, INVOICE, invoiceProps } from './lib/invoice.js';
import { treeMemoryMiB } from './lib/process-memory.js';

const ROUNDS = 15;
const settings = process.argv.slice(2).map(Number);
const concurrencies = settings.length ? settings : [1, 2, 4];

function rssKiB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // gone between listing and reading
  }
}

async function treeRssMiB(root: number): Promise<number> {
  const pids = [root, ...(await pidtree(root).catch(() => [] as number[]))];
  return pids.reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024;
}

async function measure(concurrency: number, work: string, artifact: Buffer, sourceName: string) {
  const dataDir = path.join(work, `c${concurrency}`);
  const store = openStore({ dataDir });
  const team = await store.ensureTeam('size', 1_000_000);
  const { key } = await store.createApiKey('size');
  await store.publishTemplate(team.id, 'invoice', artifact, { sourceName });
  await store.close();

  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--log-level', 'warn', '--concurrency', String(concurrency)], {
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(said)?.[1];
      if (found) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`imprint serve exited with ${code}:\n${said}`)));
  });
  const render = async (n: number) => {
    const response = await fetch(`${url}/api/documents/invoice`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ props: invoiceProps(n) }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the node answered ${response.status}`);
  };
  try {
    await render(0);
    const idle = { pss: (await treeMemoryMiB(child.pid!)).mib, rss: await treeRssMiB(child.pid!) };
    const peak = { pss: 0, rss: 0, processes: 0 };
    let done = false;
    const sampling = (async () => {
      while (!done) {
        const tree = await treeMemoryMiB(child.pid!);
        peak.pss = Math.max(peak.pss, tree.mib);
        peak.processes = Math.max(peak.processes, tree.processes);
        peak.rss = Math.max(peak.rss, await treeRssMiB(child.pid!));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async (_, client) => {
      for (let i = 0; i < ROUNDS; i++) await render(client * ROUNDS + i + 1);
    }));
    const seconds = (performance.now() - started) / 1000;
    done = true;
    await sampling;
    return { concurrency, idle, peak, docsPerSecond: (concurrency * ROUNDS) / seconds };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-node-size-'));
try {
  const { artifact } = await bundleTemplate(INVOICE);
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('concurrency  idle PSS  peak PSS  peak RSS (summed)  processes  docs/s');
  for (const concurrency of concurrencies) {
    const m = await measure(concurrency, work, encodeArtifact(artifact), artifact.sourceName);
    console.log(
      `${String(m.concurrency).padStart(11)}  ${m.idle.pss.toFixed(0).padStart(5)} MiB  ${m.peak.pss.toFixed(0).padStart(5)} MiB  ${m.peak.rss.toFixed(0).padStart(11)} MiB  ${String(m.peak.processes).padStart(9)}  ${m.docsPerSecond.toFixed(1).padStart(6)}`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
