/**
 * Opens `<dataDir>/imprint.db` the one way every process must: the CLI's embedded mode and
 * the server may have the same data folder open at once, so all of them need WAL (readers
 * never wait for a writer), the same busy timeout (writers queue instead of failing), and
 * foreign keys (off by default in SQLite, per connection).
 */
import path from 'node:path';
import { ImprintError } from '../../errors.js';
import { privateDatabaseFile } from '../data-folder.js';
import { openSqlite, type Db } from '../../sqlite-driver.js';
import type { Migration } from '../migration.js';
import { translateStorageFull } from '../storage-full.js';

export type { Db };

const BUSY_TIMEOUT_MS = 5000;

export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  let db: Db;
  try {
    // The driver loads when a database opens: commands that open none (--help, render on the warm renderer) skip it.
    // Webhook secrets and download tokens are in it: this user's alone, its -wal and -shm too.
    privateDatabaseFile(file);
    db = openSqlite(file);
  } catch (error) {
    throw new ImprintError(
      'INTERNAL',
      `Cannot open the Imprint database ${file}: ${(error as Error).message}. Check that the data folder exists and is writable by this user.`,
      { cause: error },
    );
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    // What better-sqlite3 (the driver before node:sqlite) was compiled with, kept so the store
    // behaves as it did: in WAL mode a commit writes the log without an fsync (NORMAL: a killed
    // process loses nothing, a power cut may lose the last commits, never the database), and
    // 16 MB of page cache. node:sqlite's FULL fsyncs every commit: a job row took 1.5-2x the wall
    // time on this machine's disk (bench/job-path.ts), for no change in CPU.
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -16000');
    // While several processes open a new folder at once, switching it to WAL can answer
    // SQLITE_BUSY at once instead of waiting through busy_timeout, so that step is retried.
    guardDatabase(file, () =>
      retryWhileBusy(() => {
        db.pragma('journal_mode = WAL');
        migrate(db, file, migrations);
      }),
    );
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so two
 * processes that read-then-write (next version number, usage count) are serialised instead
 * of both reading the same value.
 */
export function immediate<T>(db: Db, fn: () => T): T {
  return guardDatabase(db.name, () => db.immediate(fn));
}

/**
 * A lock held past the busy timeout, or a disk too full for the write (SQLITE_FULL: the
 * transaction was rolled back), becomes an error a person can act on.
 */
export function guardDatabase<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isBusy(error)) {
      throw new ImprintError(
        'INTERNAL',
        `The Imprint database ${file} stayed locked by another process for more than ${BUSY_TIMEOUT_MS / 1000} s. Try again; if it keeps happening, look for a stuck imprint process using this data folder.`,
        { cause: error },
      );
    }
    throw translateStorageFull(error, `to the Imprint database ${path.basename(file)}`, path.dirname(file));
  }
}

const isBusy = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

function retryWhileBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return fn();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      // Opening is synchronous (node:sqlite), so wait synchronously; the jitter keeps
      // processes that collided from colliding again in step.
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 20);
    }
  }
}

function migrate(db: Db, file: string, migrations: readonly Migration[]): void {
  const schemaVersion = () => db.pragma('user_version', { simple: true }) as number;
  const checkNotNewer = (version: number) => {
    if (version > migrations.length) {
      throw new ImprintError(
        'INTERNAL',
        `The Imprint database ${file} has schema version ${version}, newer than this Imprint understands (${migrations.length}). Upgrade Imprint, or point it at another data folder.`,
      );
    }
  };
  // Cheap check without the write lock: the usual open finds the schema current.
  const seen = schemaVersion();
  checkNotNewer(seen);
  if (seen === migrations.length) return;
  immediate(db, () => {
    // Read again under the lock: another process may have migrated since.
    const from = schemaVersion();
    checkNotNewer(from);
    for (const migration of migrations.slice(from)) db.exec(migration.sql);
    db.pragma(`user_version = ${migrations.length}`);
  });
}
