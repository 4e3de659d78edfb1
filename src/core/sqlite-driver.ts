/**
 * The embedded store's driver: Node's built-in SQLite (`node:sqlite`, unflagged since Node
 * 22.13), so that installing Imprint compiles nothing (better-sqlite3, the driver before it,
 * is a native module that every install without its prebuilt binary built from source).
 *
 * The store was written against better-sqlite3, and this module gives it the same few things
 * it used, with the same behaviour where the two drivers differ: statements typed by their
 * parameters and rows, rows as plain objects (node:sqlite's have no prototype, so
 * `assert.deepEqual` and spreads would see a difference), BLOBs as Buffers, `undefined` bound as
 * NULL, errors carrying SQLite's code name (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, ...) in
 * `code`, `pragma()`, and an IMMEDIATE transaction that rolls back when its function throws.
 *
 * Node 22 prints an ExperimentalWarning when the module first loads (Node 24 does not): that
 * one warning is kept from users' terminals and services' logs; every other warning passes.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

type Param = null | number | bigint | string | NodeJS.ArrayBufferView | undefined;

export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  run(...params: P): { changes: number; lastInsertRowid: number | bigint };
}

export interface Db {
  /** The file the database was opened from (`:memory:` for one in memory). */
  readonly name: string;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  exec(sql: string): void;
  /** `PRAGMA <text>`: its rows, or with `simple` the first column of its first row. */
  pragma(text: string, options?: { simple?: boolean }): unknown;
  /** Runs `fn` in a BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws. */
  immediate<T>(fn: () => T): T;
  close(): void;
}

let builtin: typeof import('node:sqlite') | undefined;

/** node:sqlite, loaded on first use without Node 22's experimental warning for it. */
export function loadSqlite(): typeof import('node:sqlite') {
  builtin ??= withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite') | undefined);
  if (!builtin) throw new Error(`This Node (${process.version}) has no node:sqlite: run Imprint on a Node its package.json "engines" names (Node 24 recommended; \`imprint doctor\` checks it).`);
  return builtin;
}

/**
 * Runs `load` with Node's "SQLite is an experimental feature" warning dropped: Node emits it
 * while the module loads, once a process. Any other warning, then or later, is emitted as usual.
 */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : ((rest[0] as { type?: string } | undefined)?.type ?? (warning instanceof Error ? warning.name : undefined));
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Opens (creating it when missing, unless `readOnly`) the database in `file`. */
export function openSqlite(file: string, options: { readOnly?: boolean } = {}): Db {
  const { DatabaseSync } = loadSqlite();
  return wrapDatabase(translate(() => new DatabaseSync(file, { readOnly: options.readOnly ?? false })), file);
}

function wrapDatabase(db: DatabaseSync, name: string): Db {
  return {
    name,
    prepare<P extends unknown[], R>(sql: string): Statement<P, R> {
      return wrapStatement<P, R>(translate(() => db.prepare(sql)));
    },
    exec: (sql) => translate(() => db.exec(sql)),
    pragma(text, options) {
      const rows = translate(() => db.prepare(`PRAGMA ${text}`).all()).map(plainRow);
      if (!options?.simple) return rows;
      const first = rows[0];
      return first === undefined ? undefined : Object.values(first)[0];
    },
    immediate<T>(fn: () => T): T {
      translate(() => db.exec('BEGIN IMMEDIATE'));
      let result: T;
      try {
        result = fn();
      } catch (error) {
        // SQLite may already have rolled back (SQLITE_FULL does): then there is none to end.
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
      translate(() => db.exec('COMMIT'));
      return result;
    },
    close: () => db.close(),
  };
}

function wrapStatement<P extends unknown[], R>(statement: StatementSync): Statement<P, R> {
  return {
    get: (...params) => {
      const row = translate(() => statement.get(...bindable(params)));
      return row === undefined ? undefined : (plainRow(row) as R);
    },
    all: (...params) => translate(() => statement.all(...bindable(params))).map((row) => plainRow(row) as R),
    run: (...params) => {
      const { changes, lastInsertRowid } = translate(() => statement.run(...bindable(params)));
      // A number unless the statement was set to read BigInts, which the store never does.
      return { changes: Number(changes), lastInsertRowid };
    },
  };
}

/** better-sqlite3 bound `undefined` as NULL; node:sqlite refuses it. */
function bindable(params: unknown[]): Exclude<Param, undefined>[] {
  return params.map((param) => (param === undefined ? null : param)) as Exclude<Param, undefined>[];
}

/** A row as a plain object, its BLOBs as Buffers (what the store's callers were written for). */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const key in row) {
    const value = row[key];
    plain[key] = value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
  }
  return plain;
}

/**
 * SQLite's result codes by number, for the ones the store tells apart; the extended codes are
 * the constraint kinds. node:sqlite reports the number (`errcode`); callers test the name.
 */
const RESULT_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  17: 'SQLITE_SCHEMA',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
};

/** Names a node:sqlite error's code the way SQLite does (and better-sqlite3 did): SQLITE_FULL, not ERR_SQLITE_ERROR. */
export function sqliteCodeName(errcode: number): string {
  return RESULT_CODES[errcode] ?? RESULT_CODES[errcode & 0xff] ?? `SQLITE_${errcode}`;
}

function translate<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    const errcode = (error as { errcode?: unknown }).errcode;
    if (typeof errcode === 'number') (error as { code?: string }).code = sqliteCodeName(errcode);
    throw error;
  }
}
