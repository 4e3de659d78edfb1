/**
 * Opens the store a face was configured with: PostgreSQL when a database URL is given (a
 * service on several machines), else the data folder's SQLite database (the default, no setup);
 * its objects (artifacts, issued PDFs) in an S3 bucket when one is given, else in the data folder.
 */
import { ImprintError } from '../errors.js';
import { secureDataFolder, tightenedNotice } from './data-folder.js';
import { openStore } from './sqlite/index.js';
import { openObjectStore, type S3ObjectsOptions } from './objects/open-objects.js';
import type { Clock } from './time.js';
import type { Store } from './types.js';

export type { Store };

export interface OpenStoreAtOptions {
  dataDir: string;
  /** postgres://...; none: SQLite in the data folder. */
  databaseUrl?: string;
  /** PostgreSQL only: how long an unsettled reservation holds its unit (reservation-lease.ts). */
  reservationLeaseMs?: number;
  /** An S3 bucket for artifacts and issued PDFs (needs databaseUrl); none: files in the data folder. */
  storage?: S3ObjectsOptions;
  now?: Clock;
  /** Told once when the data folder was readable by others (an older Imprint's) and was made private. */
  onNotice?: (message: string) => void;
}

export async function openStoreAt(options: OpenStoreAtOptions): Promise<Store> {
  if (options.storage && !options.databaseUrl) {
    throw new ImprintError(
      'USAGE',
      'Object storage on S3 (--storage, IMPRINT_STORAGE) needs PostgreSQL (--database, IMPRINT_DATABASE_URL): S3 is for several nodes sharing their objects, and without a shared database each node would count generations, list templates and look up download links in its own SQLite file. Give every node the same --database, or leave --storage out to keep objects in the data folder.',
    );
  }
  if (!options.databaseUrl) return openStore({ dataDir: options.dataDir, now: options.now, onNotice: options.onNotice });
  // With PostgreSQL the folder still holds objects (unless on S3): private as well, said once.
  const { tightened } = secureDataFolder(options.dataDir);
  if (tightened) options.onNotice?.(tightenedNotice(tightened));
  // The driver and the SDK load only when asked for: the default (and every CLI command) never needs them.
  // Handed over: the PostgreSQL store closes it, also when it fails to open.
  const objects = await openObjectStore(options.dataDir, options.storage);
  return (await import('./postgres/index.js')).openPostgresStore({ url: options.databaseUrl, dataDir: options.dataDir, now: options.now, objects, reservationLeaseMs: options.reservationLeaseMs });
}
