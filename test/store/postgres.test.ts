/**
 * The store on PostgreSQL: the shared suite (store-suite.ts) against a throwaway cluster, a
 * database per test, and what only this adapter has: migrations under an advisory lock while
 * nodes start together, reservations from several pools, and leases that give back the units
 * of a node that died mid-render.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { ImprintError } from '../../src/core/errors.js';
import { openPostgresStore } from '../../src/core/store/postgres/index.js';
import { POSTGRES_MIGRATIONS } from '../../src/core/store/postgres/migrations.js';
import type { Store } from '../../src/core/store/index.js';
import { createS3Objects } from '../../src/core/store/objects/s3.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { isError, manualClock, storeSuite, type StoreEnv } from './store-suite.js';
import { jobStoreSuite } from './job-store-suite.js';
import { dashboardStoreSuite } from './dashboard-store-suite.js';

let cluster: PostgresCluster;
let s3: S3Server;
let prefixes = 0;

before(async () => {
  [cluster, s3] = await Promise.all([startPostgres(), startS3()]);
});

after(async () => {
  await Promise.all([cluster?.stop(), s3?.remove()]);
});

/**
 * A new database and data folder; every store opened on it is closed by remove(). With
 * `onS3`, its objects are in the s3rver bucket (a prefix of its own) instead of the folder.
 */
async function freshEnv(leaseMs?: number, onS3 = false): Promise<StoreEnv & { url: string }> {
  const url = await cluster.createDatabase();
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pgstore-')), 'data');
  const prefix = `store-suite/${++prefixes}`;
  return {
    url,
    dataDir,
    open: (now) => openPostgresStore({ url, dataDir, now, reservationLeaseMs: leaseMs, objects: onS3 ? createS3Objects(s3.options(prefix)) : undefined }),
    ...(onS3 ? { objectNames: async (kind: string) => (await s3.keys(`${prefix}/${kind}/`)).map((key) => key.slice(`${prefix}/${kind}/`.length)) } : {}),
    async keyHash(keyId) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [keyId])).rows[0]!.key_hash;
      } finally {
        await client.end();
      }
    },
    async remove() {
      await cluster.dropDatabase(url);
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

storeSuite({ name: 'PostgreSQL', fresh: () => freshEnv() });
storeSuite({ name: 'PostgreSQL + S3', fresh: () => freshEnv(undefined, true) });
jobStoreSuite({ name: 'PostgreSQL', fresh: () => freshEnv() });
dashboardStoreSuite({ name: 'PostgreSQL', fresh: () => freshEnv() });

describe('PostgreSQL only', () => {
  test('nodes starting together migrate once, under the advisory lock', async () => {
    const env = await freshEnv();
    const stores: Store[] = [];
    try {
      // Five nodes open a new database at the same moment: each would fail on "relation
      // already exists" if two ran the schema's steps.
      stores.push(...(await Promise.all(Array.from({ length: 5 }, () => env.open(() => new Date())))));
      const client = new pg.Client({ connectionString: env.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ version: number }>('SELECT version FROM imprint_schema');
        assert.deepEqual(rows, [{ version: POSTGRES_MIGRATIONS.length }]);
      } finally {
        await client.end();
      }
      const team = await stores[0]!.createTeam('acme');
      assert.deepEqual(await stores[4]!.getTeam('acme'), team);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await env.remove();
    }
  });

  test('refuses a database migrated by a newer Imprint', async () => {
    const env = await freshEnv();
    const url = env.url;
    try {
      await (await env.open(() => new Date())).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('UPDATE imprint_schema SET version = $1', [POSTGRES_MIGRATIONS.length + 1]);
      await client.end();
      await assert.rejects(() => env.open(() => new Date()), isError('INTERNAL', /newer than this Imprint understands.*Upgrade Imprint/));
    } finally {
      await env.remove();
    }
  });

  test('an unreachable database is a clear error that names it, without its password', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pgstore-'));
    try {
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      await assert.rejects(openPostgresStore({ url: 'postgres://imprint:s3cret@127.0.0.1:1/imprint', dataDir }), (error: ImprintError) => {
        assert.match(error.message, /^Cannot connect to the PostgreSQL database 127\.0\.0\.1:1\/imprint: .*Check --database \(IMPRINT_DATABASE_URL\)/);
        assert.ok(!error.message.includes('s3cret'));
        return true;
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a reservation never settled (its node died) is given back once its lease has run out', async () => {
    const leaseMs = 60_000;
    const env = await freshEnv(leaseMs);
    const clock = manualClock('2025-01-15T12:00:00.000Z');
    const dying = await env.open(clock.now);
    const alive = await env.open(clock.now);
    try {
      const team = await alive.createTeam('acme', 2);
      // The dying node reserves both units and never commits nor releases them.
      await dying.reserveGeneration(team.id);
      await dying.reserveGeneration(team.id);
      await dying.close();
      await assert.rejects(() => alive.reserveGeneration(team.id), isError('LIMIT_EXCEEDED'));
      assert.equal(await alive.usage(team.id), 2);

      clock.advance(leaseMs - 1);
      await assert.rejects(() => alive.reserveGeneration(team.id), isError('LIMIT_EXCEEDED'), 'not before the lease runs out');
      clock.advance(1);
      assert.equal(await alive.usage(team.id), 0, 'expired units no longer count');
      assert.equal((await alive.listTeams())[0]!.usedThisMonth, 0);
      await (await alive.reserveGeneration(team.id)).commit();
      assert.equal(await alive.usage(team.id), 1);
      // The other expired unit was given back by that reservation: a purge finds nothing more.
      await alive.purgeExpiredFiles();
      assert.equal(await alive.usage(team.id), 1);
    } finally {
      await alive.close();
      await env.remove();
    }
  });

  test('the periodic purge gives back expired reservations of teams that reserve nothing more', async () => {
    const env = await freshEnv(1000);
    const clock = manualClock('2025-01-15T12:00:00.000Z');
    const store = await env.open(clock.now);
    try {
      const team = await store.createTeam('quiet', 5);
      await store.reserveGeneration(team.id);
      const settled = await store.reserveGeneration(team.id);
      await settled.commit();
      clock.advance(1000);
      await store.purgeExpiredFiles();
      const client = new pg.Client({ connectionString: env.url });
      await client.connect();
      try {
        assert.deepEqual((await client.query('SELECT count FROM usage')).rows, [{ count: 1 }], 'the committed unit stays, the abandoned one is given back');
        assert.deepEqual((await client.query('SELECT id FROM generation_reservations')).rows, []);
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
      await env.remove();
    }
  });

  test('a render that outlives its lease still counts when it succeeds', async () => {
    const env = await freshEnv(1000);
    const clock = manualClock('2025-01-15T12:00:00.000Z');
    const store = await env.open(clock.now);
    try {
      const team = await store.createTeam('slow', 1);
      const slow = await store.reserveGeneration(team.id);
      clock.advance(1000);
      await (await store.reserveGeneration(team.id)).release();
      await slow.commit();
      assert.equal(await store.usage(team.id), 1);
    } finally {
      await store.close();
      await env.remove();
    }
  });
});
