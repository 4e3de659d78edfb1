/**
 * The store on PostgreSQL, for a service run as several nodes: teams, keys, templates and
 * versions, counts and issued-file records live in the database every node shares. The bytes
 * (template artifacts, issued PDFs) stay in the data folder for now.
 */
import { createArtifacts } from '../artifacts.js';
import { prepareDataFolder } from '../context.js';
import type { Clock } from '../time.js';
import type { Store } from '../types.js';
import { createPgApiKeys } from './api-keys.js';
import { checkReachable, createPool, DEFAULT_POOL_SIZE } from './connect.js';
import { createPgGenerationQuota, DEFAULT_RESERVATION_LEASE_MS } from './generation-quota.js';
import { createPgIssuedFiles } from './issued-files.js';
import { createPgJobStore } from './jobs.js';
import { migrate } from './migrations.js';
import { createPgTeams } from './teams.js';
import { createPgTemplates } from './templates.js';
import { createPgWebhookSecrets } from './webhook-secrets.js';

export { DEFAULT_RESERVATION_LEASE_MS };

export interface OpenPostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Where artifacts and issued PDFs are kept. */
  dataDir: string;
  now?: Clock;
  /** How long an unsettled generation reservation holds its unit (generation-quota.ts). */
  reservationLeaseMs?: number;
  poolSize?: number;
}

export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<Store> {
  const { url, dataDir, now = () => new Date() } = options;
  const paths = prepareDataFolder(dataDir);
  const pool = createPool(url, options.poolSize ?? DEFAULT_POOL_SIZE);
  try {
    await checkReachable(pool, url);
    await migrate(pool, url);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const ctx = { pool, now };
  const teams = createPgTeams(ctx);
  const artifacts = createArtifacts(paths.artifacts);
  return {
    dataDir,
    close: () => pool.end(),
    ensureTeam: teams.ensureTeam,
    createTeam: teams.createTeam,
    getTeam: teams.getTeam,
    listTeams: teams.listTeams,
    setTeamLimit: teams.setTeamLimit,
    ...createPgApiKeys(ctx, teams),
    ...createPgTemplates(ctx, teams, artifacts),
    readArtifact: async (sha256) => artifacts.read(sha256),
    ...createPgGenerationQuota(ctx, teams, options.reservationLeaseMs),
    ...createPgIssuedFiles(ctx, teams, paths.files),
    ...createPgWebhookSecrets(ctx, teams),
    jobs: createPgJobStore(ctx, teams),
  };
}
