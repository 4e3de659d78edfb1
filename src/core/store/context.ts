/** What every part of the store shares: one connection, the data folder's paths and the clock. */
import path from 'node:path';
import type { Db } from './database.js';
import type { Clock } from './time.js';

export interface StorePaths {
  database: string;
  artifacts: string;
  files: string;
}

export interface StoreContext {
  db: Db;
  dataDir: string;
  paths: StorePaths;
  now: Clock;
}

export function storePaths(dataDir: string): StorePaths {
  return {
    database: path.join(dataDir, 'imprint.db'),
    artifacts: path.join(dataDir, 'artifacts'),
    files: path.join(dataDir, 'files'),
  };
}
