/**
 * The SQLite store, the embedded one: one data folder holding the SQLite database, template artifacts and
 * issued PDFs (these two through the files object store, objects/files.ts). The CLI's embedded mode and the server open the same folder, possibly at the
 * same time, so everything here is safe across processes (see database.ts). The PostgreSQL store (../postgres/) answers the same port (../types.ts).
 *
 *   <dataDir>/imprint.db           teams, keys, templates, versions, usage, issued files, webhook secrets
 *   <dataDir>/artifacts/<sha256>   template artifacts, content-addressed
 *   <dataDir>/files/<name>.pdf     PDFs issued for `format: json` results
 */
import { createApiKeys } from './api-keys.js';
import { createArtifacts } from '../artifacts.js';
import { createDashboardStore } from '../dashboard/store.js';
import { prepareDataFolder, type StoreContext } from './context.js';
import { tightenedNotice } from '../data-folder.js';
import { createFileObjects } from '../objects/files.js';
import { guardDatabase, openDatabase } from './database.js';
import type { Statement } from '../../sqlite-driver.js';
import { createGenerationQuota } from './generation-quota.js';
import { createIssuedFiles } from './issued-files.js';
import { createJobStore } from './jobs.js';
import { MIGRATIONS } from './migrations.js';
import { createTeams } from './teams.js';
import { createTemplates } from './templates.js';
import { createWebhookSecrets } from './webhook-secrets.js';
import { createSigningKeys } from './signing-keys.js';
import type { Clock } from '../time.js';
import type { Store } from '../types.js';

export interface OpenStoreOptions {
  dataDir: string;
  /** The clock, injectable so tests can cross a month or an expiry without waiting. */
  now?: Clock;
  /** Told once when the data folder was readable by others (an older Imprint's) and was made private. */
  onNotice?: (message: string) => void;
}

export function openStore(options: OpenStoreOptions): Store {
  const { dataDir, now = () => new Date() } = options;
  const paths = prepareDataFolder(dataDir);
  if (paths.tightened) options.onNotice?.(tightenedNotice(paths.tightened));
  const objects = createFileObjects(dataDir);
  const db = openDatabase(paths.database, MIGRATIONS);
  const ctx: StoreContext = { db, dataDir, paths, objects, now };

  const teams = createTeams(ctx);
  const artifacts = createArtifacts(objects);
  const apiKeys = createApiKeys(ctx, teams);
  const templates = createTemplates(ctx, teams, artifacts);
  const quota = createGenerationQuota(ctx, teams);
  const issuedFiles = createIssuedFiles(ctx, teams);
  const webhookSecrets = createWebhookSecrets(ctx, teams);
  const signingKeys = createSigningKeys(ctx, teams);
  // The dashboard's statements are prepared once each: a served document adds to its day's count
  // (server/dashboard/daily-usage.ts), and compiling that statement again cost more than running it.
  // Their texts are the dashboard module's constants, so the map stays small.
  const statements = new Map<string, Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)));
    return statement;
  };

  // SQLite works synchronously (node:sqlite), and each operation stays one synchronous call
  // inside, its transactions included (a reservation's check and increment are never split by
  // an await); only the answer is handed back as a promise, as the store port says. What
  // touches objects awaits them outside any transaction.
  return {
    dataDir,
    objects,
    close: async () => {
      db.close();
    },
    ensureTeam: asPromise(teams.ensureTeam),
    createTeam: asPromise(teams.createTeam),
    getTeam: asPromise(teams.getTeam),
    listTeams: asPromise(teams.listTeams),
    setTeamLimit: asPromise(teams.setTeamLimit),
    createApiKey: asPromise(apiKeys.createApiKey),
    listApiKeys: asPromise(apiKeys.listApiKeys),
    revokeApiKey: asPromise(apiKeys.revokeApiKey),
    authenticateKey: asPromise(apiKeys.authenticateKey),
    publishTemplate: templates.publishTemplate,
    listTemplates: asPromise(templates.listTemplates),
    getTemplate: asPromise(templates.getTemplate),
    resolveTemplate: asPromise(templates.resolveTemplate),
    rollbackTemplate: asPromise(templates.rollbackTemplate),
    readArtifact: artifacts.read,
    deleteTemplate: asPromise(templates.deleteTemplate),
    async reserveGeneration(teamId) {
      const reservation = quota.reserveGeneration(teamId);
      return { commit: asPromise(reservation.commit), release: asPromise(reservation.release) };
    },
    usage: asPromise(quota.usage),
    issueFile: issuedFiles.issueFile,
    openIssuedFile: issuedFiles.openIssuedFile,
    purgeExpiredFiles: issuedFiles.purgeExpiredFiles,
    rotateWebhookSecret: asPromise(webhookSecrets.rotateWebhookSecret),
    getWebhookSecret: asPromise(webhookSecrets.getWebhookSecret),
    setSigningKey: asPromise(signingKeys.setSigningKey),
    getSigningKey: asPromise(signingKeys.getSigningKey),
    removeSigningKey: asPromise(signingKeys.removeSigningKey),
    jobs: createJobStore(ctx, teams),
    dashboard: createDashboardStore(
      {
        all: async (sql, params) => prepared(sql).all(...params) as never[],
        run: async (sql, params) => guardDatabase(db.name, () => prepared(sql).run(...params).changes),
      },
      now,
    ),
  };
}

/** A synchronous operation as an asynchronous one: what it throws becomes a rejection. */
const asPromise =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  async (...args: A): Promise<R> =>
    fn(...args);
