import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openSqlite } from '../../src/core/sqlite-driver.js';
import { openStore, type Store } from '../../src/core/store/index.js';
import { MIGRATIONS } from '../../src/core/store/sqlite/migrations.js';
import { isError, manualClock, storeSuite, type StoreEnv } from './store-suite.js';
import { jobStoreSuite } from './job-store-suite.js';
import { dashboardStoreSuite } from './dashboard-store-suite.js';

/**
 * The store on SQLite: the shared suite (store-suite.ts), and what only a data folder has:
 * its file format and several processes opening it at once.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const storeEntry = pathToFileURL(path.join(projectRoot, 'src/core/store/index.ts')).href;

/** One test's store: a data folder of its own. */
async function sqliteEnv(): Promise<StoreEnv> {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-store-')), 'data');
  return {
    dataDir,
    open: async (now) => openStore({ dataDir, now }),
    async keyHash(keyId) {
      const db = openSqlite(path.join(dataDir, 'imprint.db'), { readOnly: true });
      try {
        return (db.prepare('SELECT key_hash FROM api_keys WHERE id = ?').get(keyId) as { key_hash: string }).key_hash;
      } finally {
        db.close();
      }
    },
    remove: async () => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }),
  };
}

storeSuite({ name: 'SQLite', fresh: sqliteEnv });
jobStoreSuite({ name: 'SQLite', fresh: sqliteEnv });
dashboardStoreSuite({ name: 'SQLite', fresh: sqliteEnv });

let dataDir: string;
let clock: ReturnType<typeof manualClock>;
let store: Store;

// What only a data folder has, on a store of its own.
describe('SQLite only', () => {
  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-store-')), 'data');
    clock = manualClock('2025-01-15T12:00:00.000Z');
    store = openStore({ dataDir, now: clock.now });
  });

  afterEach(async () => {
    await store.close();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  describe('SQLite: opening the data folder', () => {
    test('creates the folder, the database in WAL mode and the current schema', () => {
      assert.ok(fs.statSync(path.join(dataDir, 'artifacts')).isDirectory());
      assert.ok(fs.statSync(path.join(dataDir, 'files')).isDirectory());
      const db = openSqlite(path.join(dataDir, 'imprint.db'), { readOnly: true });
      try {
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
        assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
      } finally {
        db.close();
      }
    });

    test('refuses a database written by a newer Imprint', async () => {
      await store.close();
      const db = openSqlite(path.join(dataDir, 'imprint.db'));
      db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
      db.close();
      assert.throws(() => openStore({ dataDir }), isError('INTERNAL', /newer than this Imprint understands.*Upgrade Imprint/));
      store = openStore({ dataDir: path.join(path.dirname(dataDir), 'other') });
    });
  });

  describe('SQLite: several processes on one data folder', () => {
    /**
     * Runs `body` in `count` child processes. Each opens the store only after all of them have
     * started (a file appears as the starting signal), so the work really overlaps, including the
     * first open of the folder. `body` sees `store` (on the test's current time), `job` and
     * `worker`, and returns JSON data.
     */
    async function runWorkers(count: number, job: object, body: string): Promise<unknown[]> {
      const goFile = path.join(path.dirname(dataDir), 'go');
      const script = `
        import fs from 'node:fs';
        const { openStore } = await import(${JSON.stringify(storeEntry)});
        const job = JSON.parse(process.env.STORE_TEST_JOB);
        const worker = Number(process.env.STORE_TEST_WORKER);
        process.stdout.write('ready\\n');
        while (!fs.existsSync(job.goFile)) await new Promise((r) => setTimeout(r, 2));
        const store = openStore({ dataDir: job.dataDir, now: () => new Date(job.now) });
        try {
          const result = await (async () => { ${body} })();
          process.stdout.write('RESULT ' + JSON.stringify(result) + '\\n');
        } finally {
          await store.close();
        }
      `;
      const children = Array.from({ length: count }, (_, worker) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: projectRoot,
          env: { ...process.env, STORE_TEST_JOB: JSON.stringify({ ...job, dataDir, goFile, now: clock.now().toISOString() }), STORE_TEST_WORKER: String(worker) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        let markReady: () => void;
        const ready = new Promise<void>((resolve) => (markReady = resolve));
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          if (stdout.includes('ready\n')) markReady();
        });
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const done = new Promise<unknown>((resolve, reject) => {
          child.on('error', reject);
          child.on('close', (code) => {
            markReady();
            const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
            if (code !== 0 || !line) reject(new Error(`worker ${worker} exited ${code}:\n${stderr}`));
            else resolve(JSON.parse(line.slice('RESULT '.length)));
          });
        });
        return { ready, done };
      });
      await Promise.all(children.map((c) => c.ready));
      fs.writeFileSync(goFile, '');
      // Wait for every worker, even after one failed, so none still writes while the folder is removed.
      const settled = await Promise.allSettled(children.map((c) => c.done));
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
    }

    test('publishing one id at once yields versions 1..N, each exactly once with its artifact', { timeout: 60_000 }, async () => {
      // A fresh folder: the workers also race to create the database and run the migrations.
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const workers = 4;
      const perWorker = 5;
      const results = (await runWorkers(
        workers,
        { perWorker },
        `
          const team = await store.ensureTeam('local');
          const published = [];
          for (let i = 0; i < job.perWorker; i++) {
            const artifact = Buffer.from('worker ' + worker + ' publish ' + i + ' ' + 'x'.repeat(1000 * (i + 1)));
            const v = await store.publishTemplate(team.id, 'shared', artifact);
            published.push({ version: v.version, uuid: v.uuid, text: artifact.toString() });
          }
          return published;
        `,
      )) as { version: number; uuid: string; text: string }[][];

      store = openStore({ dataDir, now: clock.now });
      const team = (await store.getTeam('local'))!;
      const all = results.flat();
      const total = workers * perWorker;
      assert.deepEqual(all.map((p) => p.version).sort((a, b) => a - b), Array.from({ length: total }, (_, i) => i + 1));
      assert.equal(new Set(all.map((p) => p.uuid)).size, 1, 'one template, one uuid');

      const details = (await store.getTemplate(team.id, 'shared'))!;
      assert.deepEqual(details.versions.map((v) => v.version), Array.from({ length: total }, (_, i) => i + 1));
      for (const published of all) {
        const resolved = await store.resolveTemplate(team.id, 'shared', published.version);
        assert.equal((await store.readArtifact(resolved.artifactSha256)).toString(), published.text);
      }
      assert.equal((await store.listTeams()).length, 1, 'ensureTeam raced without duplicates');
    });

    test('reserving against a limit of 10 with 50 attempts: exactly 10 succeed', { timeout: 60_000 }, async () => {
      const team = await store.createTeam('acme', 10);
      const results = (await runWorkers(
        5,
        { attempts: 10, teamId: team.id },
        `
          let succeeded = 0;
          let refused = 0;
          for (let i = 0; i < job.attempts; i++) {
            try {
              await (await store.reserveGeneration(job.teamId)).commit();
              succeeded++;
            } catch (error) {
              if (error.code !== 'LIMIT_EXCEEDED') throw error;
              refused++;
            }
          }
          return { succeeded, refused };
        `,
      )) as { succeeded: number; refused: number }[];

      const succeeded = results.reduce((sum, r) => sum + r.succeeded, 0);
      const refused = results.reduce((sum, r) => sum + r.refused, 0);
      assert.equal(succeeded, 10);
      assert.equal(refused, 40);
      assert.equal(await store.usage(team.id), 10);
    });
  });
});
