/** The store's public shapes. Times are ISO 8601 strings in UTC. */

export interface Team {
  id: number;
  name: string;
  generationLimit: number;
  createdAt: string;
}

export interface TeamWithUsage extends Team {
  /** Successful generations in the current UTC month. */
  usedThisMonth: number;
}

export interface ApiKeyInfo {
  id: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedApiKey {
  keyId: string;
  /** The secret, shown once: only its hash is stored. */
  key: string;
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
  commit(): void;
  /** The render failed: only successful generations count, so the unit is given back. */
  release(): void;
}

export interface IssuedFile {
  token: string;
  expiresAt: string;
  path: string;
}

export interface OpenedIssuedFile {
  path: string;
  bytes: number;
  expiresAt: string;
}

export interface Store {
  readonly dataDir: string;
  close(): void;

  ensureTeam(name: string, limit?: number): Team;
  createTeam(name: string, limit?: number): Team;
  getTeam(name: string): Team | undefined;
  listTeams(): TeamWithUsage[];
  setTeamLimit(name: string, limit: number): Team;

  createApiKey(teamName: string): CreatedApiKey;
  listApiKeys(teamName: string): ApiKeyInfo[];
  revokeApiKey(keyId: string): void;
  /** The team of a live key, with the key's id (recorded as who published a version). */
  authenticateKey(key: string): { team: Team; keyId: string } | undefined;

  publishTemplate(teamId: number, templateId: string, artifact: Buffer, meta?: PublishMeta): PublishedVersion;
  listTemplates(teamId: number): TemplateSummary[];
  getTemplate(teamId: number, idOrUuid: string): TemplateDetails | undefined;
  resolveTemplate(teamId: number, idOrUuid: string, version?: number): ResolvedTemplate;
  /** Publishes an earlier version again as the new latest one (api.md Part E); history is not rewritten. */
  rollbackTemplate(teamId: number, idOrUuid: string, version: number, meta?: { publishedBy?: string }): PublishedVersion & { rollbackOf: number };
  readArtifact(sha256: string): Buffer;
  deleteTemplate(teamId: number, idOrUuid: string): boolean;

  reserveGeneration(teamId: number): GenerationReservation;
  usage(teamId: number, month?: string): number;

  issueFile(teamId: number, pdf: Buffer, ttlMs: number): IssuedFile;
  openIssuedFile(token: string): OpenedIssuedFile | undefined;
  purgeExpiredFiles(): number;
}
