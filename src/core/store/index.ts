/**
 * The embedded store: one data folder holding the SQLite database, template artifacts and
 * issued PDFs. The CLI's embedded mode and the server open the same folder, possibly at the
 * same time, so everything here is safe across processes (see database.ts).
 *
 *   <dataDir>/imprint.db           teams, keys, templates, versions, usage, issued files
 *   <dataDir>/artifacts/<sha256>   template artifacts, content-addressed
 *   <dataDir>/files/<name>.pdf     PDFs issued for `format: json` results
 */
import fs from 'node:fs';
import { ImprintError } from '../errors.js';
import { createApiKeys } from './api-keys.js';
import { createArtifacts } from './artifacts.js';
import { storePaths, type StoreContext } from './context.js';
import { openDatabase } from './database.js';
import { createGenerationQuota } from './generation-quota.js';
import { createIssuedFiles } from './issued-files.js';
import { MIGRATIONS } from './migrations.js';
import { createTeams } from './teams.js';
import { createTemplates } from './templates.js';
import type { Clock } from './time.js';
import type { Store } from './types.js';

export type * from './types.js';
export { DEFAULT_GENERATION_LIMIT } from './teams.js';

export interface OpenStoreOptions {
  dataDir: string;
  /** The clock, injectable so tests can cross a month or an expiry without waiting. */
  now?: Clock;
}

export function openStore(options: OpenStoreOptions): Store {
  const { dataDir, now = () => new Date() } = options;
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
  const db = openDatabase(paths.database, MIGRATIONS);
  const ctx: StoreContext = { db, dataDir, paths, now };

  const teams = createTeams(ctx);
  const artifacts = createArtifacts(paths.artifacts);

  return {
    dataDir,
    close: () => db.close(),
    ensureTeam: teams.ensureTeam,
    createTeam: teams.createTeam,
    getTeam: teams.getTeam,
    listTeams: teams.listTeams,
    setTeamLimit: teams.setTeamLimit,
    ...createApiKeys(ctx, teams),
    ...createTemplates(ctx, teams, artifacts),
    readArtifact: artifacts.read,
    ...createGenerationQuota(ctx, teams),
    ...createIssuedFiles(ctx, teams),
  };
}
