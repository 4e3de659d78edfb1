/**
 * The connection pool of the PostgreSQL store, and its one way to run a transaction. Every
 * node holds its own pool; what must be exact across nodes (versions, counts) is decided by
 * row locks inside one transaction, never by anything a node remembers.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { ImprintError } from '../../errors.js';

export type Pool = pg.Pool;
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * A statement the server parses and plans once per connection instead of on every call: a
 * job row sends several of these (claim, outcome, issued file), and parsing and planning their
 * CTEs again each time is a good part of the server's work per row (bench/job-path.ts: 6.1 to
 * 8.1 ms of a slot per row unprepared, 5.1 to 5.7 prepared). For fixed texts only: the name
 * comes from the text, so a text built with values in it would prepare a statement per value.
 */
const preparedNames = new Map<string, string>();
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = preparedNames.get(text);
  if (!name) preparedNames.set(text, (name = `imprint_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return { name, text, values };
}

/** Connections per node: renders hold one only for a few short statements. */
export const DEFAULT_POOL_SIZE = 10;
/**
 * Connections a node opens at start and keeps however long it idles: about what a job's rows
 * use at once on a small node (the claim, the rows being recorded, the stream's reads). A
 * connection opened mid-job costs the server a process's start and the job path's statements
 * prepared again, on the cores the renders need (bench/README.md, the job row's fourth round).
 */
export const WARM_CONNECTIONS = 4;
const CONNECT_TIMEOUT_MS = 10_000;

/** host:port/database of a URL, never its password, for messages and logs. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'the configured database';
  }
}

export function createPool(url: string, max = DEFAULT_POOL_SIZE): Pool {
  const pool = new pg.Pool({ connectionString: url, max, min: Math.min(WARM_CONNECTIONS, max), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that the server closes (a restart) emits here; without a listener the
  // process would crash. The pool drops it and opens another for the next query.
  pool.on('error', () => undefined);
  return pool;
}

export interface HeldConnection {
  client: pg.PoolClient;
  /** Gives the connection back; one that failed while held is closed, not reused. */
  release(error?: Error): void;
}

/**
 * A connection taken from the pool, listened to for as long as it is held. pg.Pool listens to
 * a connection's 'error' event only while it is idle; a held one whose server goes away (a
 * restart, a failover) emits 'error' too, and without a listener that ends the whole node.
 * Nothing is lost by listening: the driver fails the query under way and every later one on
 * that connection (which the store answers DATABASE_UNAVAILABLE), and release() closes it.
 */
export async function holdConnection(pool: Pool): Promise<HeldConnection> {
  const client = await pool.connect();
  let failed: Error | undefined;
  const onError = (error: Error) => {
    failed ??= error;
  };
  client.on('error', onError);
  return {
    client,
    release(error) {
      client.removeListener('error', onError);
      client.release(error ?? failed);
    },
  };
}

/** The first connections (WARM_CONNECTIONS of them, kept by the pool), with an error a person can act on when there is none. */
export async function checkReachable(pool: Pool, url: string): Promise<void> {
  try {
    const opened = await Promise.allSettled(Array.from({ length: Math.min(WARM_CONNECTIONS, pool.options.max) }, () => holdConnection(pool)));
    // Every connection that opened goes back to the pool (so pool.end() can close it), failed or not.
    for (const one of opened) if (one.status === 'fulfilled') one.value.release();
    const failed = opened.find((one): one is PromiseRejectedResult => one.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    throw new ImprintError(
      'INTERNAL',
      `Cannot connect to the PostgreSQL database ${describeDatabase(url)}: ${(error as Error).message}. Check --database (IMPRINT_DATABASE_URL): the address, the user and password, and that PostgreSQL is running.`,
      { cause: error },
    );
  }
}

/**
 * Runs `fn` in one transaction on one connection: committed when it returns, rolled back when
 * it throws. A connection whose rollback failed is closed rather than handed to the next caller.
 */
export async function transaction<T>(pool: Pool, fn: (client: Queryable) => Promise<T>): Promise<T> {
  const held = await holdConnection(pool);
  const { client } = held;
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const value = await fn(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    held.release(broken);
  }
}

export const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';
