/**
 * better-sqlite3, the embedded store's driver, loaded when a database opens. It is a native
 * module built by its install script; npm 11 warns about dependencies' install scripts and a
 * stricter npm configuration skips them, which leaves the module without its binary. That case
 * says which command builds it, in the package and in a project alike.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { ImprintError } from './errors.js';

export const SQLITE_BUILD_HINT =
  'npm skipped better-sqlite3\'s install script, which builds it. For a global install run `npm install -g --allow-scripts=better-sqlite3 imprint` ' +
  '(or allow it for good: `npm config set allow-scripts=better-sqlite3 --location=user`); in a project, `npm install-scripts approve better-sqlite3 && npm rebuild better-sqlite3`.';

const isMissingBinding = (error: unknown) => error instanceof Error && /Could not locate the bindings file|better_sqlite3\.node/.test(error.message);

/** The driver's constructor; a driver installed without its native part is an error that says how to build it. */
export function loadSqlite(): typeof Database {
  let Sqlite: typeof Database;
  try {
    Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new ImprintError('INTERNAL', `The SQLite driver (better-sqlite3) cannot load: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  return Sqlite;
}

/** Opens a database with the driver, turning a missing native binary into the fix. */
export function openSqlite(file: string): Database.Database {
  const Sqlite = loadSqlite();
  try {
    return new Sqlite(file);
  } catch (error) {
    if (isMissingBinding(error)) throw new ImprintError('INTERNAL', `The SQLite driver (better-sqlite3) is installed without its native module. ${SQLITE_BUILD_HINT}`, { cause: error });
    throw error;
  }
}
