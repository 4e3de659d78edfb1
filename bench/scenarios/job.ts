/**
 * 7. The same invoices as the batch (scenario 3) through a job: `imprint render invoice --batch
 * rows.jsonl --out-dir ...` in remote mode against `imprint serve` on this machine, which
 * submits one job (api.md Part D) and reads its stream (each PDF as its row finishes, one
 * answer; docs/jobs.md, Streaming), or polls it and downloads each PDF when it cannot. Timed
 * from spawn to exit, like the batch. Also counted: the HTTP requests the CLI made (its
 * --summary says) and the ones the service answered (its metrics), which must agree.
 *
 * `poolSize`: the service's --concurrency; a job's rows may take every slot
 * (src/server/jobs/runtime.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Artifact } from '../../src/core/artifact.js';
import { openStoreAt } from '../../src/core/store/open-store.js';
import { BIN, invoiceProps, PAGES_PER_DOCUMENT } from '../lib/invoice.js';
import { pageCount } from '../lib/pdf-pages.js';
import type { Measured } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';
import { publishBenchInvoice, startServe } from './service.js';

export interface JobRun {
  measured: Measured;
  /** HTTP requests the CLI sent (its summary's count). */
  cliRequests: number;
  /** Requests the service answered during the run, by method and route (its metrics; /metrics itself left out). */
  served: Record<string, number>;
}

async function requestCounts(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^imprint_http_requests_total\{method="(\w+)",route="([^"]+)",status="\d+"\} (\d+)/gm)) {
    if (match[2] === '/metrics') continue;
    const key = `${match[1]} ${match[2]}`;
    counts[key] = (counts[key] ?? 0) + Number(match[3]);
  }
  return counts;
}

/** The CLI as a user runs it, without blocking this process (the service is its child too). */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

/** `databaseUrl`: the service's store (and so its job queue, the job tables) on PostgreSQL; default SQLite. */
/** `serveBin`: another build's bin/imprint.js serves the job (bench/job-ab.ts); the CLI is always this checkout's. */
export async function job(dataDir: string, work: string, artifact: Artifact, docs: number, poolSize: number, label: string, databaseUrl?: string, serveBin?: string): Promise<JobRun> {
  const key = await publishBenchInvoice(await openStoreAt({ dataDir, databaseUrl }), artifact);
  const rows = path.join(work, 'job-rows.jsonl');
  fs.writeFileSync(rows, Array.from({ length: docs }, (_, n) => JSON.stringify(invoiceProps(n))).join('\n'));
  const out = path.join(work, 'job-out');
  const summaryFile = path.join(work, 'job-summary.json');
  const { child, url } = await startServe(dataDir, { databaseUrl, bin: serveBin }, ['--metrics-on-api-port', '--concurrency', String(poolSize)]);
  try {
    const before = await requestCounts(url);
    const started = performance.now();
    const run = await runCli(['render', 'invoice', '--batch', rows, '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--summary', summaryFile, ...tagging.cliArgs], {
      ...process.env,
      CI: 'true',
      IMPRINT_API_URL: url,
      IMPRINT_API_KEY: key,
      IMPRINT_CONFIG_DIR: path.join(work, 'job-config'),
    });
    const wallMs = performance.now() - started;
    if (run.status !== 0) throw new Error(`the job batch failed (exit ${run.status}):\n${run.stderr}`);
    // The service counts an answer once it is sent, which may be just after the CLI has read it and exited.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await requestCounts(url);
    const served: Record<string, number> = {};
    for (const [route, n] of Object.entries(after)) if (n > (before[route] ?? 0)) served[route] = n - (before[route] ?? 0);
    const report = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as { ok: number; requests: number; rows: { ms?: number }[] };
    if (report.ok !== docs) throw new Error(`the job delivered ${report.ok} of ${docs}`);
    const first = path.join(out, fs.readdirSync(out).find((name) => name.endsWith('.pdf'))!);
    const pages = pageCount(first);
    if (pages !== PAGES_PER_DOCUMENT) throw new Error(`the benchmark's invoice should print on ${PAGES_PER_DOCUMENT} pages, ${first} has ${pages}`);
    checkUntagged(first, label);
    fs.rmSync(out, { recursive: true, force: true });
    const jobSlots = poolSize;
    return {
      // Per-row latencies are the service's, not seen from here: the row's ms is its download.
      measured: { name: label, docs, wallMs, latenciesMs: [], concurrency: jobSlots, note: `wall time of the whole CLI run; service pool of ${poolSize}, ${jobSlots} for jobs; store ${databaseUrl ? 'PostgreSQL' : 'SQLite'}` },
      cliRequests: report.requests,
      served,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
