/**
 * Several `imprint serve` nodes (the built CLI, child processes) on one throwaway PostgreSQL
 * cluster and one shared data folder, as docs/deploy.md runs them on one machine. The
 * operator's connection (teams, keys, counts) is an in-process store on the same database.
 * kill() ends a node the way a lost machine does: SIGKILL to it and to its browsers, no
 * shutdown of any kind.
 */
import fs from 'node:fs';
import pidtree from 'pidtree';
import { request } from 'undici';
import { openPostgresStore } from '../../src/core/store/postgres/index.js';
import type { Store } from '../../src/core/store/types.js';
import { replyOf, type Reply } from '../contract/helpers/service.js';
import { tempDir } from './cli.js';
import { startPostgres, type PostgresCluster } from './postgres.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';

export interface Fleet {
  cluster: PostgresCluster;
  databaseUrl: string;
  /** The data folder every node shares (artifacts, issued PDFs). */
  dataDir: string;
  nodes: ServeProcess[];
  operator: Store;
  /** Starts one more node with the fleet's database and folder; `args` are added to its command line. */
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
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const cluster = await startPostgres();
  const dataDir = tempDir('imprint-fleet-');
  const nodes: ServeProcess[] = [];
  let operator: Store | undefined;
  const close = async () => {
    await Promise.allSettled(nodes.map((node) => (node.child.exitCode === null && node.child.signalCode === null ? node.stop() : undefined)));
    await operator?.close();
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await cluster.createDatabase();
    operator = await openPostgresStore({ url: databaseUrl, dataDir });
    const startNode = async (args: string[] = []) => {
      const node = await startServeProcess({ dataDir, args: ['--database', databaseUrl, ...(options.args ?? []), ...args] });
      nodes.push(node);
      return node;
    };
    // One at a time: each migrates under the advisory lock anyway, and the machine is small.
    for (let i = 0; i < options.nodes; i++) await startNode();
    const store = operator;
    return {
      cluster,
      databaseUrl,
      dataDir,
      nodes,
      operator: store,
      startNode,
      async team(name, limit) {
        await store.createTeam(name, limit);
        return (await store.createApiKey(name)).key;
      },
      async kill(node) {
        let browsers: number[] = [];
        try {
          browsers = await pidtree(node.child.pid!);
        } catch (error) {
          if (!/No matching pid/i.test((error as Error).message)) throw error;
        }
        node.child.kill('SIGKILL');
        await node.exited;
        // The machine is gone with everything on it: its browsers too (they would linger as orphans).
        for (const pid of browsers) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
          }
        }
      },
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
