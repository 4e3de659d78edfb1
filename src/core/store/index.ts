/**
 * The store's face: the port every adapter answers (types.ts) and the SQLite store every face
 * can open without setup. Which adapter a configured face gets is open-store.ts's choice:
 *
 *   sqlite/     the data folder's SQLite database (embedded mode, one machine)
 *   postgres/   a shared PostgreSQL database (a service on several nodes)
 *   objects/    artifacts and issued PDFs: files in the data folder, or an S3 bucket
 *   dashboard/  the dashboard's sessions, login codes, key use and daily counts, in SQL both
 *               adapters run (sql-port.ts)
 *   the rest    dialect-free rules both adapters share (team-rules.ts, template-rules.ts,
 *               quota-rule.ts, job-records.ts, ...), owned by neither
 */
export type * from './types.js';
export type * from './dashboard/types.js';
export { openStore, type OpenStoreOptions } from './sqlite/index.js';
export { DEFAULT_GENERATION_LIMIT } from './team-rules.js';
