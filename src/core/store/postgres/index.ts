/**
 * The store on PostgreSQL, for a service run as several nodes: teams, keys, templates and
 * versions, counts and issued-file records live in the database every node shares. The bytes
 * (template artifacts, issued PDFs) are in the object store it is handed: an S3 bucket the
 * nodes share, or the data folder of a single node.
 */
import { createArtifacts } from '../artifacts.js';
import { createDashboardStore } from '../dashboard/store.js';
import { secureDataFolder } from '../data-folder.js';
import { createFileObjects } from '../objects/files.js';
import type { ObjectStore } from '../objects/types.js';
import type { Clock } from '../time.js';
import type { Store } from '../types.js';
import { createPgApiKeys } from './api-keys.js';
import { checkReachable, createPool, DEFAULT_POOL_SIZE, describeDatabase } from './connect.js';
import { createPgGenerationQuota, DEFAULT_RESERVATION_LEASE_MS } from './generation-quota.js';
import { createPgIssuedFiles } from './issued-files.js';
import { createPgJobStore } from './jobs.js';
import { migrate } from './migrations.js';
import { createPgTeams } from './teams.js';
import { createPgTemplates } from './templates.js';
import { createPgWebhookSecrets } from './webhook-secrets.js';
import { createPgSigningKeys } from './signing-keys.js';
import { withUnavailableErrors } from './unavailable.js';

export { DEFAULT_RESERVATION_LEASE_MS };

export interface OpenPostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  dataDir: string;
  /** Where artifacts and issued PDFs are kept; default: files in the data folder. Closed with the store. */
  objects?: ObjectStore;
  now?: Clock;
  /** How long an unsettled generation reservation holds its unit (generation-quota.ts). */
  reservationLeaseMs?: number;
  poolSize?: number;
}

export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<Store> {
  const { url, dataDir, now = () => new Date() } = options;
  secureDataFolder(dataDir);
  const objects = options.objects ?? createFileObjects(dataDir);
  const pool = createPool(url, options.poolSize ?? DEFAULT_POOL_SIZE);
  try {
    await checkReachable(pool, url);
    await migrate(pool, url);
  } catch (error) {
    await pool.end();
    await objects.close();
    throw error;
  }
  const ctx = { pool, now };
  const teams = createPgTeams(ctx);
  const artifacts = createArtifacts(objects);
  // A database out of reach for a moment answers 503 DATABASE_UNAVAILABLE, not 500 (unavailable.ts).
  return withUnavailableErrors({
    dataDir,
    objects,
    close: () => pool.end().finally(() => objects.close()),
    ensureTeam: teams.ensureTeam,
    createTeam: teams.createTeam,
    getTeam: teams.getTeam,
    listTeams: teams.listTeams,
    setTeamLimit: teams.setTeamLimit,
    ...createPgApiKeys(ctx, teams),
    ...createPgTemplates(ctx, teams, artifacts),
    readArtifact: artifacts.read,
    ...createPgGenerationQuota(ctx, teams, options.reservationLeaseMs),
    ...createPgIssuedFiles(ctx, objects),
    ...createPgWebhookSecrets(ctx, teams),
    ...createPgSigningKeys(ctx, teams),
    jobs: createPgJobStore(ctx, teams),
    dashboard: createDashboardStore(
      {
        all: async (sql, params) => (await pool.query(numbered(sql), [...params])).rows,
        run: async (sql, params) => (await pool.query(numbered(sql), [...params])).rowCount ?? 0,
      },
      now,
    ),
  }, describeDatabase(url));
}

/** `?` placeholders as PostgreSQL's $1, $2... (the dashboard's SQL is written once for both databases). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
