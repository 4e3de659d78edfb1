/**
 * Several `imprint serve` nodes (the built CLI, child processes) that share nothing but a
 * throwaway PostgreSQL cluster and an S3-compatible server (s3rver), as docs/deploy.md runs
 * them: each node has a data folder of its own. The operator's connection (teams, keys,
 * counts) is an in-process store on the same database and bucket.
 * kill() ends a node the way a lost machine does: SIGKILL to it and to its browsers, no
 * shutdown of any kind.
 */
import fs from 'node:fs';
import { request } from 'undici';
import { FILES_PREFIX } from '../../src/core/store/objects/types.js';
import { openStoreAt } from '../../src/core/store/open-store.js';
import type { Store } from '../../src/core/store/types.js';
import { replyOf, type Reply } from '../contract/helpers/service.js';
import { tempDir } from './cli.js';
import { startPostgres, type PostgresCluster } from './postgres.js';
import { startS3, type S3Server } from './s3.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';

export interface Fleet {
  cluster: PostgresCluster;
  databaseUrl: string;
  s3: S3Server;
  /** --storage of every node. */
  storage: string;
  nodes: ServeProcess[];
  /** The operator's store, in this process, on the fleet's database and bucket. */
  operator: Store;
  /** Opens one more store like the operator's (the caller closes it). */
  openStore(): Promise<Store>;
  /** The names of the issued PDFs in the bucket, sorted. */
  storedFiles(): Promise<string[]>;
  /** Starts one more node on the fleet's database and bucket; `args` are added to its command line. */
  startNode(args?: string[]): Promise<ServeProcess>;
  /** A team with a key. */
  team(name: string, limit: number): Promise<string>;
  /** Kills a node and its browsers with SIGKILL, and waits for it to be gone. */
  kill(node: ServeProcess): Promise<void>;
  close(): Promise<void>;
}

export interface FleetOptions {
  nodes: number;
  /** Added to every node's command line. */
  args?: string[];
  /** Added to every node's environment. */
  env?: Record<string, string>;
}

const PREFIX = 'fleet';

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  // Settled, not all: if one fails to start, the other is still stopped.
  const [startedCluster, startedS3] = await Promise.allSettled([startPostgres(), startS3()]);
  if (startedCluster.status === 'rejected' || startedS3.status === 'rejected') {
    await Promise.allSettled([startedCluster.status === 'fulfilled' ? startedCluster.value.stop() : undefined, startedS3.status === 'fulfilled' ? startedS3.value.remove() : undefined]);
    throw startedCluster.status === 'rejected' ? startedCluster.reason : (startedS3 as PromiseRejectedResult).reason;
  }
  const [cluster, s3] = [startedCluster.value, startedS3.value];
  const storage = `s3://${s3.bucket}/${PREFIX}`;
  const folders: string[] = [];
  const nodes: ServeProcess[] = [];
  let operator: Store | undefined;
  const close = async () => {
    await Promise.allSettled(nodes.map((node) => (node.child.exitCode === null && node.child.signalCode === null ? node.stop() : undefined)));
    await operator?.close();
    await Promise.allSettled([cluster.stop(), s3.remove()]);
    for (const folder of [...folders, ...nodes.map((node) => node.dataDir)]) fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await cluster.createDatabase();
    const openStore = () => {
      const dataDir = tempDir('imprint-fleet-operator-');
      folders.push(dataDir);
      return openStoreAt({ dataDir, databaseUrl, storage: s3.options(PREFIX) });
    };
    operator = await openStore();
    const startNode = async (args: string[] = []) => {
      // A data folder of its own (startServeProcess makes one): the nodes share only the database and the bucket.
      const node = await startServeProcess({ args: ['--database', databaseUrl, '--storage', storage, ...(options.args ?? []), ...args], env: { ...s3.env, ...options.env } });
      nodes.push(node);
      return node;
    };
    // One at a time: each migrates under the advisory lock anyway, and the machine is small.
    for (let i = 0; i < options.nodes; i++) await startNode();
    const store = operator;
    const filesPrefix = `${PREFIX}/${FILES_PREFIX}/`;
    return {
      cluster,
      databaseUrl,
      s3,
      storage,
      nodes,
      operator: store,
      openStore,
      storedFiles: async () => (await s3.keys(filesPrefix)).map((key) => key.slice(filesPrefix.length)),
      startNode,
      async team(name, limit) {
        await store.createTeam(name, limit);
        return (await store.createApiKey(name)).key;
      },
      // The machine is gone with everything on it: its browsers too (they would linger as orphans).
      kill: (node) => node.kill(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One HTTP request with a key (or none), its whole answer read. */
export async function call(base: string, method: 'GET' | 'POST' | 'DELETE', urlPath: string, key?: string, body?: unknown): Promise<Reply> {
  const response = await request(`${base}${urlPath}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return replyOf(response);
}

/** Resolves once `check` answers true, polling every 100 ms; fails with `what` past the deadline. */
export async function waitFor(what: string, check: () => Promise<boolean>, deadlineMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > deadlineMs) throw new Error(`Not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
