/** Templates' rules, the same in every store: version checks, the words of a refusal, a version as a row holds it. */
import { ImprintError } from '../errors.js';
import { validateTemplateId } from '../template-id.js';
import type { PublishMeta, ResolvedTemplate, TemplateDetails } from './types.js';

export interface TemplateRow {
  uuid: string;
  template_id: string;
  created_at: string;
  deleted_at: string | null;
}

export interface VersionRow {
  version: number;
  artifact_sha256: string;
  artifact_bytes: number;
  props_schema: string | null;
  source_name: string | null;
  published_at: string;
  published_by: string | null;
  rollback_of: number | null;
}

/** A version as getTemplate lists it, the same from either adapter's row. */
export const versionDetails = (row: VersionRow) => ({
  version: row.version,
  publishedAt: row.published_at,
  bytes: row.artifact_bytes,
  artifactSha256: row.artifact_sha256,
  sourceName: row.source_name,
  hasSchema: row.props_schema !== null,
  publishedBy: row.published_by,
  rollbackOf: row.rollback_of,
});

/** A render's template and version (resolveTemplate), the same from either adapter's rows. */
export const resolvedTemplate = (
  template: Pick<TemplateRow, 'uuid' | 'template_id'>,
  row: Pick<VersionRow, 'version' | 'artifact_sha256' | 'props_schema' | 'published_at'>,
): ResolvedTemplate => ({
  id: template.template_id,
  uuid: template.uuid,
  version: row.version,
  artifactSha256: row.artifact_sha256,
  propsSchema: row.props_schema === null ? null : (JSON.parse(row.props_schema) as object),
  publishedAt: row.published_at,
});

/** A template and its versions as getTemplate answers, the same from either adapter's rows. */
export const templateDetails = (template: TemplateRow, versions: readonly VersionRow[]): TemplateDetails => ({
  id: template.template_id,
  uuid: template.uuid,
  createdAt: template.created_at,
  versions: versions.map(versionDetails),
});

export const VERSION_COLUMNS = 'version, artifact_sha256, artifact_bytes, props_schema, source_name, published_at, published_by, rollback_of';

/** An unknown (or another team's, or a deleted) template, in the same words from every store. */
export const templateNotFound = (idOrUuid: string) =>
  new ImprintError('NOT_FOUND', `No template "${idOrUuid}" in this team. Run \`imprint list\` to see the published ids.`);

export function noSuchVersion(templateId: string, version: number | undefined, versions: readonly number[]): ImprintError {
  return new ImprintError(
    'NOT_FOUND',
    `Template "${templateId}" has no version ${version}; its versions are ${formatVersions(versions)}. ` +
      `Ask for one of those, or leave the version out to use the latest (${versions.at(-1)}).`,
  );
}

/** The version checks of resolve and rollback, the same from every store. */
export function checkResolveVersion(version: number | undefined): void {
  if (version !== undefined && (!Number.isSafeInteger(version) || version < 1)) {
    throw new ImprintError('INVALID_INPUT', `Invalid template version ${String(version)}: use a whole number from 1.`);
  }
}

export function checkRollbackVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new ImprintError('INVALID_INPUT', `Invalid version ${String(version)}: use a whole number from 1.`);
  }
}

/**
 * What a publish is checked for before anything is written, in every store: the id's rules, an
 * artifact that holds something, a props schema that is a JSON object.
 * @returns the props schema as the version row keeps it (JSON text), or null for none.
 */
export function checkPublish(templateId: string, artifact: Buffer, meta: PublishMeta): string | null {
  validateTemplateId(templateId);
  if (!Buffer.isBuffer(artifact) || artifact.length === 0) {
    throw new ImprintError('INVALID_INPUT', `The template "${templateId}" has an empty artifact: build the template before publishing it.`);
  }
  return serializeSchema(templateId, meta.propsSchema);
}

export function serializeSchema(templateId: string, schema: object | undefined): string | null {
  if (schema === undefined) return null;
  const invalid = (cause?: unknown) =>
    new ImprintError('INVALID_INPUT', `The props schema of template "${templateId}" must be a JSON object (a JSON Schema).`, {
      cause,
    });
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw invalid();
  try {
    return JSON.stringify(schema);
  } catch (error) {
    throw invalid(error);
  }
}

/** [1, 2, 3, 5] -> "1-3, 5": versions are usually contiguous, and a long list helps nobody. */
export function formatVersions(versions: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < versions.length; ) {
    let j = i;
    while (j + 1 < versions.length && versions[j + 1] === versions[j]! + 1) j++;
    parts.push(i === j ? `${versions[i]}` : `${versions[i]}-${versions[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
