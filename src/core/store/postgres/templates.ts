/**
 * Templates and their immutable versions in PostgreSQL, by the rules of the SQLite store
 * (../sqlite/templates.ts, rules in ../template-rules.ts). Nodes publishing the same id at once are serialised on the template's
 * row (SELECT ... FOR UPDATE), so each number is given exactly once. The artifact bytes are
 * in the object store, content-addressed; only the records are here.
 */
import { randomUUID } from 'node:crypto';
import type { Artifacts } from '../artifacts.js';
import * as rules from '../template-rules.js';
import { couldBeStoredId } from '../stored-text.js';
import { toIso } from '../time.js';
import type { PublishedVersion, PublishMeta, ResolvedTemplate, TemplateDetails, TemplateSummary } from '../types.js';
import { prepared, transaction, type Queryable } from './connect.js';
import type { PgContext, PgTeams } from './teams.js';

const TEMPLATE_COLUMNS = 'uuid, template_id, created_at, deleted_at';

export function createPgTemplates(ctx: PgContext, teams: PgTeams, artifacts: Artifacts) {
  const { pool } = ctx;

  /** A live template by uuid or custom id (the uuid wins when a string is both); `lock`: FOR UPDATE. */
  async function find(db: Queryable, teamId: number, idOrUuid: string, lock = ''): Promise<rules.TemplateRow | undefined> {
    if (typeof idOrUuid !== 'string' || !couldBeStoredId(idOrUuid)) return undefined;
    const { rows } = await db.query<rules.TemplateRow>(
      `SELECT ${TEMPLATE_COLUMNS} FROM templates
        WHERE team_id = $1 AND deleted_at IS NULL AND (uuid = $2 OR template_id = $2)
        ORDER BY uuid = $2 DESC LIMIT 1 ${lock}`,
      [teamId, idOrUuid],
    );
    return rows[0];
  }

  async function versionsOf(db: Queryable, uuid: string): Promise<rules.VersionRow[]> {
    return (await db.query<rules.VersionRow>(`SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = $1 ORDER BY version`, [uuid])).rows;
  }

  async function findVersion(db: Queryable, template: rules.TemplateRow, version: number | undefined): Promise<rules.VersionRow> {
    const { rows } =
      version === undefined
        ? await db.query<rules.VersionRow>(`SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = $1 ORDER BY version DESC LIMIT 1`, [template.uuid])
        : await db.query<rules.VersionRow>(`SELECT ${rules.VERSION_COLUMNS} FROM template_versions WHERE template_uuid = $1 AND version = $2`, [template.uuid, version]);
    if (rows[0]) return rows[0];
    throw rules.noSuchVersion(template.template_id, version, (await versionsOf(db, template.uuid)).map((v) => v.version));
  }

  async function insertVersion(db: Queryable, uuid: string, row: Omit<rules.VersionRow, 'version'>): Promise<number> {
    const { rows } = await db.query<{ next: number }>('SELECT COALESCE(MAX(version), 0) + 1 AS next FROM template_versions WHERE template_uuid = $1', [uuid]);
    const version = rows[0]!.next;
    await db.query(
      `INSERT INTO template_versions
         (template_uuid, version, artifact_sha256, artifact_bytes, props_schema, source_name, published_at, published_by, rollback_of)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [uuid, version, row.artifact_sha256, row.artifact_bytes, row.props_schema, row.source_name, row.published_at, row.published_by, row.rollback_of],
    );
    return version;
  }

  return {
    async publishTemplate(teamId: number, templateId: string, artifact: Buffer, meta: PublishMeta = {}): Promise<PublishedVersion> {
      const propsSchema = rules.checkPublish(templateId, artifact, meta);
      await teams.requireTeamById(teamId);
      // The object first: if anything below fails, the worst left behind is an unreferenced
      // artifact, never a version row pointing at nothing.
      const artifactSha256 = await artifacts.write(artifact);

      return transaction(pool, async (db) => {
        const publishedAt = toIso(ctx.now());
        await db.query('INSERT INTO templates (uuid, team_id, template_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (team_id, template_id) DO NOTHING', [
          randomUUID(),
          teamId,
          templateId,
          publishedAt,
        ]);
        // Locked until commit: another node publishing this id waits here, then numbers after us.
        const { rows } = await db.query<rules.TemplateRow>(`SELECT ${TEMPLATE_COLUMNS} FROM templates WHERE team_id = $1 AND template_id = $2 FOR UPDATE`, [teamId, templateId]);
        const template = rows[0]!;
        // Publishing a deleted id brings it back with its uuid and continues its numbering.
        if (template.deleted_at !== null) await db.query('UPDATE templates SET deleted_at = NULL WHERE uuid = $1', [template.uuid]);
        const version = await insertVersion(db, template.uuid, {
          artifact_sha256: artifactSha256,
          artifact_bytes: artifact.length,
          props_schema: propsSchema,
          source_name: meta.sourceName ?? null,
          published_at: publishedAt,
          published_by: meta.publishedBy ?? null,
          rollback_of: null,
        });
        return { id: templateId, uuid: template.uuid, version, publishedAt, artifactSha256, bytes: artifact.length };
      });
    },

    async listTemplates(teamId: number): Promise<TemplateSummary[]> {
      const { rows } = await pool.query<{ template_id: string; uuid: string; created_at: string; version: number; published_at: string }>(
        `SELECT t.template_id, t.uuid, t.created_at, v.version, v.published_at
           FROM templates t
           JOIN template_versions v ON v.template_uuid = t.uuid
            AND v.version = (SELECT MAX(version) FROM template_versions WHERE template_uuid = t.uuid)
          WHERE t.team_id = $1 AND t.deleted_at IS NULL
          ORDER BY t.template_id COLLATE "C"`,
        [teamId],
      );
      return rows.map((row) => ({ id: row.template_id, uuid: row.uuid, latestVersion: row.version, publishedAt: row.published_at, createdAt: row.created_at }));
    },

    async getTemplate(teamId: number, idOrUuid: string): Promise<TemplateDetails | undefined> {
      const template = await find(pool, teamId, idOrUuid);
      if (!template) return undefined;
      return rules.templateDetails(template, (await versionsOf(pool, template.uuid)));
    },

    async resolveTemplate(teamId: number, idOrUuid: string, version?: number): Promise<ResolvedTemplate> {
      rules.checkResolveVersion(version);
      // Every render asks this (each row of a job too): the template and its version in one
      // prepared statement, one round trip parsed and planned once per connection
      // (bench/README.md, the job row's fourth round). No row: the steps below say what is missing.
      if (typeof idOrUuid === 'string' && couldBeStoredId(idOrUuid)) {
        const { rows } = await pool.query<{ uuid: string; template_id: string; version: number; artifact_sha256: string; props_schema: string | null; published_at: string }>(
          prepared(
            `SELECT t.uuid, t.template_id, v.version, v.artifact_sha256, v.props_schema, v.published_at
               FROM (SELECT uuid, template_id FROM templates
                      WHERE team_id = $1 AND deleted_at IS NULL AND (uuid = $2 OR template_id = $2)
                      ORDER BY uuid = $2 DESC LIMIT 1) t
               JOIN LATERAL (SELECT version, artifact_sha256, props_schema, published_at FROM template_versions
                              WHERE template_uuid = t.uuid AND ($3::int IS NULL OR version = $3)
                              ORDER BY version DESC LIMIT 1) v ON TRUE`,
            [teamId, idOrUuid, version ?? null],
          ),
        );
        if (rows[0]) return rules.resolvedTemplate(rows[0], rows[0]);
      }
      const template = await find(pool, teamId, idOrUuid);
      if (!template) throw rules.templateNotFound(idOrUuid);
      return rules.resolvedTemplate(template, await findVersion(pool, template, version));
    },

    async rollbackTemplate(teamId: number, idOrUuid: string, version: number, meta: { publishedBy?: string } = {}) {
      rules.checkRollbackVersion(version);
      return transaction(pool, async (db) => {
        const template = await find(db, teamId, idOrUuid, 'FOR UPDATE');
        if (!template) throw rules.templateNotFound(idOrUuid);
        const source = await findVersion(db, template, version);
        const publishedAt = toIso(ctx.now());
        // The same artifact and props schema under a new number: history stays immutable.
        const next = await insertVersion(db, template.uuid, { ...source, published_at: publishedAt, published_by: meta.publishedBy ?? null, rollback_of: source.version });
        return { id: template.template_id, uuid: template.uuid, version: next, publishedAt, artifactSha256: source.artifact_sha256, bytes: source.artifact_bytes, rollbackOf: source.version };
      });
    },

    async deleteTemplate(teamId: number, idOrUuid: string): Promise<boolean> {
      const template = await find(pool, teamId, idOrUuid);
      if (!template) return false;
      // Soft delete: versions and artifacts stay.
      const { rowCount } = await pool.query('UPDATE templates SET deleted_at = $1 WHERE uuid = $2 AND deleted_at IS NULL', [toIso(ctx.now()), template.uuid]);
      return (rowCount ?? 0) > 0;
    },
  };
}
