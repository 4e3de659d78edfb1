/** What every part of the SQLite store shares: one connection, the data folder's paths, the object store and the clock. */
import path from 'node:path';
import { secureDataFolder, type SecuredFolder } from '../data-folder.js';
import type { Db } from './database.js';
import type { ObjectStore } from '../objects/types.js';
import type { Clock } from '../time.js';

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

/**
 * The data folder and the given folders in it, made when missing (the files object store keeps
 * artifacts and PDFs there), private to this user (data-folder.ts). What it tightened is
 * reported by the first call, the one the faces make (openStoreAt's onNotice).
 */
export function prepareDataFolder(dataDir: string, subfolders: readonly string[] = []): StorePaths & SecuredFolder {
  return { ...storePaths(dataDir), ...secureDataFolder(dataDir, subfolders) };
}
