/** What every part of the store shares: one connection, the data folder's paths and the clock. */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../errors.js';
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

/** The data folder and its artifact and file folders, made when missing (both adapters keep artifacts and PDFs there). */
export function prepareDataFolder(dataDir: string): StorePaths {
  const paths = storePaths(dataDir);
  try {
    for (const folder of [dataDir, paths.artifacts, paths.files]) fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new ImprintError(
      'INTERNAL',
      `Cannot create the Imprint data folder ${dataDir}: ${(error as Error).message}. Check the path and its permissions, or choose another data folder.`,
      { cause: error },
    );
  }
  return paths;
}
