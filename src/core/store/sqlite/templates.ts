/**
 * Templates and their immutable versions. A template is addressed by its custom id or its
 * uuid, always within one team: another team's template, or a deleted one, is reported
 * exactly like an unknown one, so ids reveal nothing across teams.
 */
import { randomUUID } from 'node:crypto';
import type { Artifacts } from '../artifacts.js';
import type { StoreContext } from './context.js';
import { immediate } from './database.js';
import type { Teams } from './teams.js';
import * as rules from '../template-rules.js';
import { toIso } from '../time.js';
import type {
  PublishedVersion,
  PublishMeta,
  ResolvedTemplate,
  TemplateDetails,
  TemplateSummary,
} from '../types.js';

export function createTemplates(ctx: StoreContext, teams: Teams, artifacts: Artifacts) {
  const { db } = ctx;
  // When a string is both one template's uuid and another's custom id, the uuid wins: it is
  // the identity that never changes.
  const findLive = db.prepare<[number, string, string, string], rules.TemplateRow>(
    `SELECT uuid, template_id, created_at, deleted_at FROM templates
      WHERE team_id = ? AND deleted_at IS NULL AND (uuid = ? OR template_id = ?)
      ORDER BY uuid = ? DESC LIMIT 1`,
  );
  const findById = db.prepare<[number, string], rules.TemplateRow>(
    'SELECT uuid, template_id, created_at, deleted_at FROM templates WHERE team_id = ? AND template_id = ?',
  );
  const insertTemplate = db.prepare<[string, number, string, string]>(
    'INSERT INTO templates (uuid, team_id, template_id, created_at) VALUES (?, ?, ?, ?)',
  );
  const revive = db.prepare<[string]>('UPDATE templates SET deleted_at = NULL WHERE uuid = ?');
  const softDelete = db.prepare<[string, string]>(
    'UPDATE templates SET deleted_at = ? WHERE uuid = ? AND deleted_at IS NULL',
  );
  const nextVersion = db.prepare<[string], { next: number }>(
    'SELECT COALESCE(MAX(version), 0) + 1 AS next FROM template_versions WHERE template_uuid = ?',
  );
  const insertVersion = db.prepare<[string, number, string, number, string | null, string | null, string, string | null, number | null]>(
    `INSERT INTO template_versions
       (template_uuid, version, artifact_sha256, artifact_bytes, props_schema, source_name, published_at, published_by, rollback_of)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const versionsOf = db.prepare<[string], rules.VersionRow>(
    `SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = ? ORDER BY version`,
  );
  const oneVersion = db.prepare<[string, number], rules.VersionRow>(
    `SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = ? AND version = ?`,
  );
  const latestVersion = db.prepare<[string], rules.VersionRow>(
    `SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = ? ORDER BY version DESC LIMIT 1`,
  );
  const listLive = db.prepare<
    [number],
    { template_id: string; uuid: string; created_at: string; version: number; published_at: string }
  >(
    `SELECT t.template_id, t.uuid, t.created_at, v.version, v.published_at
       FROM templates t
       JOIN template_versions v ON v.template_uuid = t.uuid
        AND v.version = (SELECT MAX(version) FROM template_versions WHERE template_uuid = t.uuid)
      WHERE t.team_id = ? AND t.deleted_at IS NULL
      ORDER BY t.template_id`,
  );

  const find = (teamId: number, idOrUuid: string) =>
    typeof idOrUuid === 'string' ? findLive.get(teamId, idOrUuid, idOrUuid, idOrUuid) : undefined;

  /** One version of a template (the latest without `version`); an unknown one lists those there are. */
  function findVersion(template: rules.TemplateRow, version: number | undefined): rules.VersionRow {
    const row = version === undefined ? latestVersion.get(template.uuid) : oneVersion.get(template.uuid, version);
    if (row) return row;
    throw rules.noSuchVersion(template.template_id, version, versionsOf.all(template.uuid).map((v) => v.version));
  }

  const notFound = rules.templateNotFound;

  return {
    async publishTemplate(teamId: number, templateId: string, artifact: Buffer, meta: PublishMeta = {}): Promise<PublishedVersion> {
      const propsSchema = rules.checkPublish(templateId, artifact, meta);
      const sourceName = meta.sourceName ?? null;
      teams.requireTeamById(teamId);

      // The object first: if anything below fails, the worst left behind is an unreferenced
      // artifact, never a version row pointing at nothing.
      const artifactSha256 = await artifacts.write(artifact);

      return immediate(db, () => {
        const publishedAt = toIso(ctx.now());
        let template = findById.get(teamId, templateId);
        if (!template) {
          template = { uuid: randomUUID(), template_id: templateId, created_at: publishedAt, deleted_at: null };
          insertTemplate.run(template.uuid, teamId, templateId, publishedAt);
        } else if (template.deleted_at !== null) {
          // Publishing a deleted id brings it back with its uuid and continues its numbering,
          // so "version 3" never names two different artifacts.
          revive.run(template.uuid);
        }
        const version = nextVersion.get(template.uuid)!.next;
        insertVersion.run(template.uuid, version, artifactSha256, artifact.length, propsSchema, sourceName, publishedAt, meta.publishedBy ?? null, null);
        return { id: templateId, uuid: template.uuid, version, publishedAt, artifactSha256, bytes: artifact.length };
      });
    },

    listTemplates(teamId: number): TemplateSummary[] {
      return listLive.all(teamId).map((row) => ({
        id: row.template_id,
        uuid: row.uuid,
        latestVersion: row.version,
        publishedAt: row.published_at,
        createdAt: row.created_at,
      }));
    },

    getTemplate(teamId: number, idOrUuid: string): TemplateDetails | undefined {
      const template = find(teamId, idOrUuid);
      if (!template) return undefined;
      return rules.templateDetails(template, versionsOf.all(template.uuid));
    },

    resolveTemplate(teamId: number, idOrUuid: string, version?: number): ResolvedTemplate {
      rules.checkResolveVersion(version);
      const template = find(teamId, idOrUuid);
      if (!template) throw notFound(idOrUuid);
      return rules.resolvedTemplate(template, findVersion(template, version));
    },

    rollbackTemplate(teamId: number, idOrUuid: string, version: number, meta: { publishedBy?: string } = {}) {
      rules.checkRollbackVersion(version);
      return immediate(db, () => {
        const template = find(teamId, idOrUuid);
        if (!template) throw notFound(idOrUuid);
        const source = findVersion(template, version);
        const publishedAt = toIso(ctx.now());
        const next = nextVersion.get(template.uuid)!.next;
        // The same artifact and props schema under a new number: history stays immutable, and
        // "the latest" is again what `version` was.
        insertVersion.run(template.uuid, next, source.artifact_sha256, source.artifact_bytes, source.props_schema, source.source_name, publishedAt, meta.publishedBy ?? null, source.version);
        return { id: template.template_id, uuid: template.uuid, version: next, publishedAt, artifactSha256: source.artifact_sha256, bytes: source.artifact_bytes, rollbackOf: source.version };
      });
    },

    deleteTemplate(teamId: number, idOrUuid: string): boolean {
      const template = find(teamId, idOrUuid);
      if (!template) return false;
      // Soft delete: versions and artifacts stay, so reviving or auditing remains possible.
      return softDelete.run(toIso(ctx.now()), template.uuid).changes > 0;
    },
  };
}
