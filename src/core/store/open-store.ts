/**
 * Opens the store a face was configured with: PostgreSQL when a database URL is given (a
 * service on several machines), else the data folder's SQLite database (the default, no setup).
 */
import { openStore } from './index.js';
import type { Clock } from './time.js';
import type { Store } from './types.js';

export type { Store };

export interface OpenStoreAtOptions {
  dataDir: string;
  /** postgres://...; none: SQLite in the data folder. */
  databaseUrl?: string;
  /** PostgreSQL only: how long an unsettled reservation holds its unit (reservation-lease.ts). */
  reservationLeaseMs?: number;
  now?: Clock;
}

export async function openStoreAt(options: OpenStoreAtOptions): Promise<Store> {
  // The driver loads only for a database: the default (and every CLI command) never needs it.
  if (options.databaseUrl) return (await import('./postgres/index.js')).openPostgresStore({ url: options.databaseUrl, dataDir: options.dataDir, now: options.now, reservationLeaseMs: options.reservationLeaseMs });
  return openStore({ dataDir: options.dataDir, now: options.now });
}
