/**
 * src/core/sqlite-driver.ts: the store's driver over node:sqlite behaves as the store was written
 * for (better-sqlite3's behaviour), and Node 22's experimental warning for it is dropped while
 * every other warning still reaches stderr.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openSqlite, sqliteCodeName } from '../../../src/core/sqlite-driver.js';
import { ROOT } from '../../helpers/checkout.js';

const DRIVER = path.join(ROOT, 'src', 'core', 'sqlite-driver.ts');

test('rows are plain objects, BLOBs Buffers, undefined binds as NULL, pragma and typed statements work', () => {
  const db = openSqlite(':memory:');
  try {
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, data BLOB, note TEXT)');
    const insert = db.prepare<[string, Buffer, string | undefined]>('INSERT INTO t (name, data, note) VALUES (?, ?, ?)');
    assert.deepEqual(insert.run('a', Buffer.from('bytes'), undefined), { changes: 1, lastInsertRowid: 1 });
    const row = db.prepare<[string], { id: number; name: string; data: Buffer; note: string | null }>('SELECT * FROM t WHERE name = ?').get('a');
    assert.deepEqual(row, { id: 1, name: 'a', data: Buffer.from('bytes'), note: null });
    assert.ok(Buffer.isBuffer(row!.data));
    assert.equal(db.prepare('SELECT * FROM t WHERE name = ?').get('none'), undefined);
    assert.deepEqual(db.pragma('user_version'), [{ user_version: 0 }]);
    assert.equal(db.pragma('user_version', { simple: true }), 0);
    assert.equal(db.name, ':memory:');
  } finally {
    db.close();
  }
});

test('errors carry SQLite\'s code name; an immediate transaction commits or rolls back whole', () => {
  const db = openSqlite(':memory:');
  try {
    db.exec('CREATE TABLE t (name TEXT UNIQUE)');
    const insert = db.prepare<[string]>('INSERT INTO t (name) VALUES (?)');
    db.immediate(() => insert.run('kept'));
    assert.throws(() => insert.run('kept'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    assert.throws(
      () =>
        db.immediate(() => {
          insert.run('rolled back');
          insert.run('kept');
        }),
      { code: 'SQLITE_CONSTRAINT_UNIQUE' },
    );
    assert.deepEqual(db.prepare('SELECT name FROM t').all(), [{ name: 'kept' }]);
    assert.equal(db.immediate(() => 42), 42);
  } finally {
    db.close();
  }
  assert.equal(sqliteCodeName(5), 'SQLITE_BUSY');
  assert.equal(sqliteCodeName(13), 'SQLITE_FULL');
  assert.equal(sqliteCodeName(261), 'SQLITE_BUSY'); // SQLITE_BUSY_RECOVERY: its primary code
});

test('a database opened read-only refuses writes; a missing file read-only is an error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-sqlite-'));
  try {
    const file = path.join(dir, 'x.db');
    const db = openSqlite(file);
    db.exec('CREATE TABLE t (n INTEGER)');
    db.close();
    const readOnly = openSqlite(file, { readOnly: true });
    assert.throws(() => readOnly.exec('INSERT INTO t VALUES (1)'), { code: 'SQLITE_READONLY' });
    readOnly.close();
    assert.throws(() => openSqlite(path.join(dir, 'missing.db'), { readOnly: true }), { code: 'SQLITE_CANTOPEN' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs a script on this Node with tsx, answering its stderr. */
function stderrOf(script: string): string {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(ran.status, 0, ran.stderr);
  return ran.stderr;
}

test('the experimental warning for node:sqlite is dropped, and only that one', () => {
  const filtered = stderrOf(`
    import { withoutSqliteWarning } from ${JSON.stringify(DRIVER)};
    withoutSqliteWarning(() => {
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
      process.emitWarning('Something else is an experimental feature', 'ExperimentalWarning');
    });
    process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
  `);
  assert.match(filtered, /Something else is an experimental feature/);
  // Inside the load it is dropped; outside it, the same text is not ours to drop: one is printed.
  assert.equal(filtered.match(/SQLite is an experimental feature/g)?.length, 1, filtered);

  const loaded = stderrOf(`
    import { openSqlite } from ${JSON.stringify(DRIVER)};
    openSqlite(':memory:').close();
  `);
  assert.doesNotMatch(loaded, /ExperimentalWarning|experimental feature/, loaded);
  // Where this Node warns at all (22), loading it plainly does: the check above is not vacuous there.
  const plain = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8', timeout: 60_000 }).stderr;
  if (Number(process.versions.node.split('.')[0]) === 22) assert.match(plain, /SQLite is an experimental feature/);
});
