/**
 * A PostgreSQL restart while a node holds a connection in a transaction. node-postgres emits
 * 'error' on a held connection whose server goes away, and pg.Pool listens only to idle ones:
 * without a listener of our own the whole node died (the faults-nginx test saw it now and
 * then as a refused connection). The transaction must fail as "database unreachable", the
 * process must live on, and the pool must serve again once the server is back.
 */
import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { after, before, test } from 'node:test';
import { createPool, transaction, type Pool } from '../../src/core/store/postgres/connect.js';
import { isDatabaseUnreachable } from '../../src/core/store/postgres/unavailable.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';

const EVENT_DEADLINE_MS = 30_000;
let cluster: PostgresCluster;
let pool: Pool;

before(async () => {
  cluster = await startPostgres();
  pool = createPool(await cluster.createDatabase());
});

after(async () => {
  await pool?.end();
  await cluster?.stop();
});

/** `promise`, or a failure naming `what` past the deadline: a hang fails the test, not CI. */
const within = <T>(what: string, promise: Promise<T>): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${EVENT_DEADLINE_MS} ms`)), EVENT_DEADLINE_MS).unref())]);

test('a transaction holding its connection when PostgreSQL stops fails as unreachable; the process lives on and the pool serves again', { timeout: 120_000 }, async () => {
  let inside!: () => void;
  const entered = new Promise<void>((resolve) => (inside = resolve));
  const run = transaction(pool, async (client) => {
    await client.query('SELECT 1');
    inside();
    // Held between two statements, as a transaction is while the node awaits other work. The
    // server goes away now; 'end' follows the driver's 'error' on this connection. (Not
    // events.once: it would listen to 'error' itself and hide what this test is about.)
    await within("'end' of the held connection", new Promise((resolve) => (client as unknown as EventEmitter).once('end', resolve)));
    await client.query('SELECT 2');
  });
  const outcome = run.then(
    () => undefined,
    (error: unknown) => error,
  );
  await within('start of the transaction', entered);
  await cluster.down();
  try {
    const error = await within('end of the transaction', outcome);
    assert.ok(error, 'the transaction failed');
    assert.ok(isDatabaseUnreachable(error), `failed as the database out of reach: ${String(error)}`);
  } finally {
    await cluster.up();
  }
  const { rows } = await pool.query<{ answer: number }>('SELECT 42 AS answer');
  assert.equal(rows[0]!.answer, 42);
});
