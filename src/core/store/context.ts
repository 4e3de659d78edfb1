/** What every part of the SQLite store shares: one connection, the data folder's paths, the object store and the clock. */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../errors.js';
import type { Db } from './database.js';
import type { ObjectStore } from './objects/types.js';
import type { Clock } from './time.js';

export interface StorePaths {
  database: string;
}

export interface StoreContext {
  db: Db;
  dataDir: string;
  paths: StorePaths;
  /** Where artifacts and issued PDFs are kept. */
  objects: ObjectStore;
  now: Clock;
}

export function storePaths(dataDir: string): StorePaths {
  return { database: path.join(dataDir, 'imprint.db') };
}

/** The data folder and the given folders in it, made when missing (the files object store keeps artifacts and PDFs there). */
export function prepareDataFolder(dataDir: string, subfolders: readonly string[] = []): StorePaths {
  const paths = storePaths(dataDir);
  try {
    for (const folder of [dataDir, ...subfolders.map((name) => path.join(dataDir, name))]) fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new ImprintError(
      'INTERNAL',
      `Cannot create the Imprint data folder ${dataDir}: ${(error as Error).message}. Check the path and its permissions, or choose another data folder.`,
      { cause: error },
    );
  }
  return paths;
}
