/** The store's public shapes. Times are ISO 8601 strings in UTC. */
import type { PdfBytes } from '../spool/spooled-pdf.js';
import type { Readable } from 'node:stream';
import type { ObjectStore } from './objects/types.js';
import type { JobStore } from '../jobs/job-types.js';
import type { CreatedApiKey, Team } from './account-types.js';
import type { DashboardStore } from './dashboard/types.js';
import type { StoredSigningKey } from './signing-keys-migration.js';

export type { CreatedApiKey, Team } from './account-types.js';

export interface TeamWithUsage extends Team {
  /** Successful generations in the current UTC month. */
  usedThisMonth: number;
}

export interface ApiKeyInfo {
  id: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface PublishMeta {
  propsSchema?: object;
  sourceName?: string;
  /** The API key id that published it; none for the embedded store (the local user). */
  publishedBy?: string;
}

export interface PublishedVersion {
  id: string;
  uuid: string;
  version: number;
  publishedAt: string;
  artifactSha256: string;
  bytes: number;
}

export interface TemplateSummary {
  id: string;
  uuid: string;
  latestVersion: number;
  /** When the latest version was published. */
  publishedAt: string;
  createdAt: string;
}

export interface TemplateVersionInfo {
  version: number;
  publishedAt: string;
  bytes: number;
  artifactSha256: string;
  sourceName: string | null;
  hasSchema: boolean;
  /** The API key id that published this version; null when published locally (embedded mode) or before this was recorded. */
  publishedBy: string | null;
  /** Set when this version was made by a rollback: the version it republished. */
  rollbackOf: number | null;
}

export interface TemplateDetails {
  id: string;
  uuid: string;
  createdAt: string;
  versions: TemplateVersionInfo[];
}

export interface ResolvedTemplate {
  id: string;
  uuid: string;
  version: number;
  artifactSha256: string;
  propsSchema: object | null;
  /** When this version was published: a deterministic render's document date. */
  publishedAt: string;
}

/** One unit of a team's monthly limit, held while a render runs. */
export interface GenerationReservation {
  /** The render succeeded: the unit stays counted. */
  commit(): Promise<void>;
  /** The render failed: only successful generations count, so the unit is given back. */
  release(): Promise<void>;
}

export interface IssuedFile {
  token: string;
  expiresAt: string;
  /** The PDF's file on this machine, when objects are files in the data folder (never on S3). */
  path?: string;
}

export interface OpenedIssuedFile {
  bytes: number;
  expiresAt: string;
  /** As IssuedFile's. */
  path?: string;
  /** The PDF's bytes, read from the object store as they are sent (a download, an archive). */
  open(): Promise<Readable>;
}

/**
 * The store port. Every operation answers a promise: the SQLite adapter is synchronous inside,
 * the PostgreSQL one is not, and callers must not tell them apart.
 */
export interface Store {
  readonly dataDir: string;
  /** Where artifacts and issued PDFs are kept: files in the data folder, or an S3 bucket. */
  readonly objects: ObjectStore;
  close(): Promise<void>;

  ensureTeam(name: string, limit?: number): Promise<Team>;
  createTeam(name: string, limit?: number): Promise<Team>;
  getTeam(name: string): Promise<Team | undefined>;
  listTeams(): Promise<TeamWithUsage[]>;
  setTeamLimit(name: string, limit: number): Promise<Team>;

  createApiKey(teamName: string): Promise<CreatedApiKey>;
  listApiKeys(teamName: string): Promise<ApiKeyInfo[]>;
  revokeApiKey(keyId: string): Promise<void>;
  /** The team of a live key, with the key's id (recorded as who published a version). */
  authenticateKey(key: string): Promise<{ team: Team; keyId: string } | undefined>;

  publishTemplate(teamId: number, templateId: string, artifact: Buffer, meta?: PublishMeta): Promise<PublishedVersion>;
  listTemplates(teamId: number): Promise<TemplateSummary[]>;
  getTemplate(teamId: number, idOrUuid: string): Promise<TemplateDetails | undefined>;
  resolveTemplate(teamId: number, idOrUuid: string, version?: number): Promise<ResolvedTemplate>;
  /** Publishes an earlier version again as the new latest one (api.md Part E); history is not rewritten. */
  rollbackTemplate(teamId: number, idOrUuid: string, version: number, meta?: { publishedBy?: string }): Promise<PublishedVersion & { rollbackOf: number }>;
  readArtifact(sha256: string): Promise<Buffer>;
  deleteTemplate(teamId: number, idOrUuid: string): Promise<boolean>;

  reserveGeneration(teamId: number): Promise<GenerationReservation>;
  usage(teamId: number, month?: string): Promise<number>;

  issueFile(teamId: number, pdf: PdfBytes, ttlMs: number): Promise<IssuedFile>;
  openIssuedFile(token: string): Promise<OpenedIssuedFile | undefined>;
  purgeExpiredFiles(): Promise<number>;

  /**
   * Makes the team a new webhook signing secret (`whsec_...`), replacing the one it had, and
   * answers it (shown once to whoever asked). Job webhooks are signed with it from now on.
   */
  rotateWebhookSecret(teamId: number): Promise<string>;
  /** The team's current webhook signing secret; undefined until one is made. */
  getWebhookSecret(teamId: number): Promise<string | undefined>;
  /** Stores the team's sealed signing key (`imprint team signing-key`), replacing the one it had. */
  setSigningKey(teamId: number, key: Omit<StoredSigningKey, 'createdAt'>): Promise<void>;
  /** The team's sealed signing key; undefined when it has none. Never leaves the service. */
  getSigningKey(teamId: number): Promise<StoredSigningKey | undefined>;
  /** Forgets the team's signing key; false when it had none. */
  removeSigningKey(teamId: number): Promise<boolean>;
  /** Jobs and their rows (api.md Part D), in the same database: a job's units and its rows move in one transaction. */
  readonly jobs: JobStore;
  /** The dashboard's sessions, login codes, test keys and key use (server/dashboard). */
  readonly dashboard: DashboardStore;
}
