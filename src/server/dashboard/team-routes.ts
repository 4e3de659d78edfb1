/**
 * What a signed-in person sees and does for their team, as JSON for the dashboard's page:
 * templates and their versions, rollback, a try-it render, usage, keys, the webhook secret,
 * jobs. Every route is scoped to the session's team (another team's template or job answers
 * 404 as if it did not exist); every state-changing one checks the Origin and the CSRF token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import { parseProps } from '../../core/render-request.js';
import { parseMergeParts } from '../../core/pdf/merge/parts.js';
import { parseTemplateVersion } from '../../core/template-version.js';
import type { DashboardSession } from '../../core/store/index.js';
import type { AppDeps } from '../deps.js';
import { jobArchive } from '../jobs/archive.js';
import { jobView, rowView } from '../../core/jobs/job-view.js';
import { sendResult } from '../http/send-result.js';
import { checkCsrf, checkOrigin, refuseInTestSession, requireSession } from './session.js';

const DAY_MS = 86_400_000;
export const USAGE_DAYS = 30;

export interface TeamRouteOptions {
  idleMs: number;
  publicUrl: () => string | undefined;
}

export function dashboardTeamRoutes(app: FastifyInstance, deps: AppDeps, options: TeamRouteOptions) {
  const { store } = deps;
  const hidden = { config: { public: true }, schema: { hide: true } } as const;
  const session = (request: FastifyRequest) => requireSession(request, store, options.idleMs);
  /** A change: signed in, from the dashboard's own page, with the session's CSRF token. */
  const changing = async (request: FastifyRequest): Promise<DashboardSession> => {
    checkOrigin(request, options.publicUrl());
    const live = await session(request);
    checkCsrf(request, live);
    return live;
  };
  const body = (request: FastifyRequest) => (request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {});

  app.get('/dashboard/api/templates', hidden, async (request) => {
    const { team } = await session(request);
    const templates = await store.listTemplates(team.id);
    // The size of each latest version: one look-up per template, a dashboard's page of them.
    const sized = await Promise.all(
      templates.map(async (template) => {
        const details = await store.getTemplate(team.id, template.id);
        const latest = details?.versions.find((version) => version.version === template.latestVersion);
        return { id: template.id, uuid: template.uuid, latestVersion: template.latestVersion, publishedAt: template.publishedAt, createdAt: template.createdAt, bytes: latest?.bytes ?? null };
      }),
    );
    return { templates: sized };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/templates/:id', hidden, async (request) => {
    const { team } = await session(request);
    const details = await store.getTemplate(team.id, request.params.id);
    if (!details) throw new ImprintError('NOT_FOUND', `No template "${request.params.id}" in team ${team.name}.`);
    const latest = await store.resolveTemplate(team.id, details.id);
    return { ...details, versions: [...details.versions].sort((a, b) => b.version - a.version), propsSchema: latest.propsSchema };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/templates/:id/rollback', hidden, async (request, reply) => {
    const live = await changing(request);
    const version = parseTemplateVersion(body(request).version);
    const rolled = await store.rollbackTemplate(live.team.id, request.params.id, version, { publishedBy: live.keyId });
    return reply.code(201).send({ id: rolled.id, version: rolled.version, rollbackOf: rolled.rollbackOf, publishedAt: rolled.publishedAt });
  });

  // "Try it": the template rendered with the form's props, counted like any render of the team (a test key's session: stamped, not counted).
  app.post<{ Params: { id: string } }>('/dashboard/api/templates/:id/render', { ...hidden, bodyLimit: deps.limits.requestBytes }, async (request, reply) => {
    const live = await changing(request);
    const given = body(request);
    const version = given.version === undefined ? undefined : parseTemplateVersion(given.version);
    const { result } = await deps.engine.renderDocument(live.team, request.params.id, parseProps(given.props), { format: 'pdf', ...parseMergeParts(given) }, version);
    return sendResult(reply, result, request.params.id);
  });

  app.get('/dashboard/api/usage', hidden, async (request) => {
    const { team } = await session(request);
    const now = deps.now();
    const month = now.toISOString().slice(0, 7);
    const first = new Date(now.getTime() - (USAGE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    const counted = new Map((await store.dashboard.dailyUsage(team.id, first)).map((entry) => [entry.day, entry.count]));
    const days = Array.from({ length: USAGE_DAYS }, (_, index) => {
      const day = new Date(now.getTime() - (USAGE_DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10);
      return { day, count: counted.get(day) ?? 0 };
    });
    return { month, used: await store.usage(team.id, month), limit: team.generationLimit, days };
  });

  app.get('/dashboard/api/keys', hidden, async (request) => {
    const { team, keyId } = await session(request);
    const keys = await store.dashboard.listKeys(team.id);
    return { keys: keys.map((key) => ({ ...key, current: key.id === keyId })) };
  });

  app.post('/dashboard/api/keys', hidden, async (request, reply) => {
    const live = await changing(request);
    const test = body(request).test === true;
    if (!test) refuseInTestSession(live, 'create a live key (create a test key instead)');
    const created = await store.dashboard.createKey(live.team.id, { test });
    return reply.code(201).send({ id: created.keyId, key: created.key, test });
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/keys/:id/revoke', hidden, async (request) => {
    const live = await changing(request);
    // A contractor's test session must not switch off the team's production keys.
    if (live.test && !(await store.dashboard.isTestKey(request.params.id))) refuseInTestSession(live, 'revoke a live key (only test keys)');
    if (!(await store.dashboard.revokeKey(live.team.id, request.params.id))) {
      throw new ImprintError('NOT_FOUND', `No key "${request.params.id}" in team ${live.team.name}.`);
    }
    return { id: request.params.id, revoked: true, endsThisSession: request.params.id === live.keyId };
  });

  app.post('/dashboard/api/webhook-secret', hidden, async (request) => {
    const live = await changing(request);
    // The secret signs every webhook of the team, live jobs' too: a test session must neither break it nor learn it.
    refuseInTestSession(live, "rotate the team's webhook signing secret");
    return { secret: await store.rotateWebhookSecret(live.team.id) };
  });

  const jobs = deps.jobs;
  const requireJobs = () => {
    if (!jobs) throw new ImprintError('NOT_FOUND', 'This service runs no jobs.');
    return jobs;
  };
  const requireJob = async (team: DashboardSession['team'], id: string) => {
    const job = await requireJobs().jobs.get(team, id);
    if (!job) throw new ImprintError('NOT_FOUND', `No job ${id} in team ${team.name}.`);
    return job;
  };

  app.get<{ Querystring: { before?: string } }>('/dashboard/api/jobs', hidden, async (request) => {
    const { team } = await session(request);
    if (!jobs) return { jobs: [] };
    const list = await jobs.jobs.list(team, 51, request.query.before);
    const page = list.slice(0, 50);
    return { jobs: page.map((job) => jobView(job, jobs.urls)), ...(list.length > 50 ? { next: page[page.length - 1].id } : {}) };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/jobs/:id', hidden, async (request) => {
    const { team } = await session(request);
    const job = await requireJob(team, request.params.id);
    const rows = (await requireJobs().jobs.rows(job.id)).filter((row) => row.state === 'failed');
    const { urls } = requireJobs();
    return { ...jobView(job, urls), archiveUrl: `/dashboard/api/jobs/${encodeURIComponent(job.id)}/archive`, failedRows: rows.map((row) => rowView(row, urls)) };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/jobs/:id/cancel', hidden, async (request) => {
    const live = await changing(request);
    const job = await requireJobs().jobs.cancel(live.team, request.params.id);
    if (!job) throw new ImprintError('NOT_FOUND', `No job ${request.params.id} in team ${live.team.name}.`);
    return jobView(job, requireJobs().urls);
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/jobs/:id/archive', hidden, async (request, reply) => {
    const { team } = await session(request);
    const job = await requireJob(team, request.params.id);
    const { stream } = await jobArchive(store, await requireJobs().jobs.rows(job.id), (error) => request.log.error({ err: error }, 'writing a job archive failed'));
    return reply.type('application/zip').header('content-disposition', `attachment; filename="${job.id.replace(/[^A-Za-z0-9._-]/g, '_')}.zip"`).send(stream);
  });
}
