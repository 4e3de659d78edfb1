/**
 * 4. The service under two parallel clients: `imprint serve` as its own process on loopback,
 * two clients each sending one request after another (POST /api/documents/invoice). Needs the
 * server (src/server); without it the scenario is skipped with a note.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Artifact } from '../../src/core/artifact.js';
import { encodeArtifact } from '../../src/core/artifact.js';
import type { S3ObjectsOptions } from '../../src/core/store/objects/open-objects.js';
import { openStoreAt, type Store } from '../../src/core/store/open-store.js';
import { BIN, invoiceProps, ROOT } from '../lib/invoice.js';
import type { Measured } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

export const serverAvailable = () => fs.existsSync(path.join(ROOT, 'src', 'server', 'start.ts'));

const CLIENTS = 2;
const WARM_UP = 10;

export function startServe(dataDir: string, options: ServiceOptions = {}, args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const database = options.databaseUrl ? ['--database', options.databaseUrl] : [];
  const storage = options.storage ? ['--storage', options.storage.url] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.bin ?? BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--log-level', 'warn', ...database, ...storage, ...args], { env: { ...process.env, CI: 'true', ...options.storage?.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => reject(new Error(`imprint serve did not start:\n${said}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(said)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.on('exit', (code) => reject(new Error(`imprint serve exited with ${code}:\n${said}`)));
  });
}

export interface ServiceOptions {
  /** The node's store on PostgreSQL (`--database`); default: SQLite in the data folder. */
  databaseUrl?: string;
  /** Objects in an S3 bucket (`--storage`, with the variables that reach it); needs databaseUrl. */
  storage?: { url: string; env: Record<string, string>; options: S3ObjectsOptions };
  /** The row's name; default: the SQLite service's. */
  name?: string;
  /** Another build's bin/imprint.js to serve with (an A/B of the service's code, bench/job-ab.ts); default: this checkout's. */
  bin?: string;
  /** Node's own flags for the service's process (bench/job-profile.ts: --cpu-prof). */
  nodeArgs?: string[];
}

/** A team with room for any run, its key, and the invoice published for it; closes the store. */
export async function publishBenchInvoice(store: Store, artifact: Artifact): Promise<string> {
  try {
    const team = await store.ensureTeam('bench', 1_000_000);
    await store.setTeamLimit('bench', 1_000_000);
    const { key } = await store.createApiKey('bench');
    await store.publishTemplate(team.id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
    return key;
  } finally {
    await store.close();
  }
}

export async function service(dataDir: string, artifact: Artifact, docs: number, options: ServiceOptions = {}): Promise<Measured> {
  const key = await publishBenchInvoice(await openStoreAt({ dataDir, databaseUrl: options.databaseUrl, storage: options.storage?.options }), artifact);
  const { child, url } = await startServe(dataDir, options);
  const render = async (n: number) => {
    const response = await fetch(`${url}/api/documents/invoice`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ props: invoiceProps(n), ...tagging.request }),
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`the service answered ${response.status}: ${body.toString().slice(0, 300)}`);
    return body;
  };
  try {
    checkUntagged(await render(0), options.name ?? 'the service');
    for (let i = 1; i < WARM_UP; i++) await render(i);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < docs) {
          const n = next++;
          const t = performance.now();
          await render(n);
          latencies.push(performance.now() - t);
        }
      }),
    );
    return { name: options.name ?? '4 service, 2 parallel clients', docs, wallMs: performance.now() - started, latenciesMs: latencies, concurrency: CLIENTS, note: 'HTTP on loopback, PDF bodies' };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
