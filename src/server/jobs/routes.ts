/**
 * api.md Part D: jobs. Submit answers 202 at once with where to look; the rows render in the
 * background (core/jobs). A team sees only its own jobs: another team's job answers 404, as
 * one that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import type { JobRecord } from '../../core/jobs/job-types.js';
import { jobView, rowView } from '../../core/jobs/job-view.js';
import type { Team } from '../../core/store/index.js';
import type { JobRoutesDeps } from '../deps.js';
import { jobArchive } from './archive.js';
import { storageFullResponse } from '../http/errors.js';
import { shownPartsSchema } from '../http/merge-schema.js';
import { authErrorResponses, badRequestResponse, errorSchema, mediaTypeResponse, outputFields, timestamp, tooLargeResponse, urlDeniedResponse } from '../http/schemas.js';
import { jobStream } from './stream.js';
import { guideUrl } from '../../core/guides.js';
import { JOBS_PATH } from '../urls.js';

/** How often a job's stream reads the store for rows other nodes finished (this node's rows are sent as they finish). */
const STREAM_POLL_MS = 1000;

const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

const jobIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'the job id' } } } as const;
const notFound = { ...errorSchema, description: 'No such job for this team.' };

const webhookSchema = {
  type: 'object',
  required: ['url', 'attempts'],
  properties: {
    url: { type: 'string' },
    attempts: {
      type: 'array',
      description: 'every delivery attempt so far, oldest first',
      items: {
        type: 'object',
        required: ['at'],
        properties: { at: timestamp, status: { type: 'integer', description: "the receiver's HTTP status" }, error: { type: 'string', description: 'why no 2xx answer came' } },
      },
    },
  },
} as const;

const summaryProperties = {
  id: { type: 'string' },
  status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
  total: { type: 'integer' },
  done: { type: 'integer', description: 'rows rendered' },
  failed: { type: 'integer', description: 'rows that failed (given back to the monthly limit)' },
  cancelled: { type: 'integer', description: 'rows cancelled before they started (given back)' },
  createdAt: timestamp,
  finishedAt: { type: 'string', format: 'date-time', nullable: true },
  template: { type: 'string', description: 'A1 jobs: the template' },
  version: { type: 'integer', description: 'A1 jobs: the template version every row renders' },
  name: { type: 'string', description: 'the file-name pattern' },
  test: { type: 'boolean', description: 'present (true) when submitted with a test key: every row stamped TEST, none counted' },
  webhook: webhookSchema,
  parts: shownPartsSchema,
  statusUrl: { type: 'string', format: 'uri' },
  archiveUrl: { type: 'string', format: 'uri', description: 'GET it for a zip of the PDFs finished so far' },
} as const;

const summarySchema = { type: 'object', required: ['id', 'status', 'total', 'done', 'failed', 'cancelled', 'createdAt', 'statusUrl'], properties: summaryProperties } as const;

const rowSchema = {
  type: 'object',
  required: ['row'],
  description: 'a finished row: { row, name, url } when rendered, { row, error, code } when it failed',
  properties: {
    row: { type: 'integer', description: 'its place in `rows`, from 1' },
    name: { type: 'string', description: 'its file name, from the `name` pattern' },
    url: { type: 'string', format: 'uri', description: 'where the PDF downloads (GET /api/files/{token}), a json-form URL' },
    expiresAt: timestamp,
    error: { type: 'string' },
    code: { type: 'string', description: 'the error code, as an error answer would carry it' },
  },
} as const;

export function jobRoutes(app: FastifyInstance, deps: JobRoutesDeps) {
  const { urls } = deps;
  const summary = (job: JobRecord) => jobView(job, urls);

  async function requireJob(team: Team, id: string): Promise<JobRecord> {
    const job = await deps.jobs.get(team, id);
    if (!job) throw new ImprintError('NOT_FOUND', `No job ${id} for this team. List your jobs with GET /api/jobs.`);
    return job;
  }

  app.post(
    JOBS_PATH,
    {
      bodyLimit: deps.requestBytes,
      schema: {
        summary: 'Submit a job: many documents from one request',
        externalDocs: { description: 'Jobs', url: guideUrl('jobs') },
        description: 'An A1 body with `template` and `rows` (props objects) in place of `props`, or an A2 body with `rows` of `{ html?, url? }`. Answers at once; the rows render in the background.',
        tags: ['jobs'],
        body: {
          type: 'object',
          required: ['rows'],
          properties: {
            template: { type: 'string', description: "A1 jobs: the template's id or UUID (absent: an A2 job)" },
            version: { type: 'integer', minimum: 1, description: 'A1 jobs: render this version (default: the latest at submit)' },
            rows: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'A1: props objects; A2: { html?, url? }' },
            name: { type: 'string', description: 'file-name pattern, e.g. {{invoiceNo}}.pdf ({{$row}}: the row number); default {{$row}}.pdf' },
            webhook: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
            ...outputFields,
          },
        },
        response: {
          202: { type: 'object', required: ['id', 'status', 'total', 'statusUrl'], properties: { id: { type: 'string' }, status: summaryProperties.status, total: { type: 'integer' }, statusUrl: { type: 'string', format: 'uri' } } },
          400: badRequestResponse,
          403: urlDeniedResponse,
          404: { ...errorSchema, description: 'No such template (or version) for this team.' },
          413: tooLargeResponse,
          415: mediaTypeResponse,
          422: { ...errorSchema, description: "The job's rows would take the team past its monthly generation limit; nothing was submitted." },
          ...authErrorResponses,
          ...storageFullResponse,
        },
      },
      // The body is judged by core (parse-job.ts), in the same words as A1/A2.
      attachValidation: true,
    },
    async (request, reply) => {
      const job = await deps.jobs.submit(request.team, request.body);
      const url = urls.jobStatus(job.id);
      return reply.code(202).header('Location', url).send({ id: job.id, status: job.status, total: job.total, statusUrl: url });
    },
  );

  app.get<{ Querystring: { limit?: string; before?: string } }>(
    JOBS_PATH,
    {
      schema: {
        summary: "The team's jobs, newest first",
        tags: ['jobs'],
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'string', description: `how many (1-${MAX_LIST_LIMIT}, default ${DEFAULT_LIST_LIMIT})` },
            before: { type: 'string', description: 'a job id: list the jobs submitted before it (the previous answer\'s `next`)' },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['jobs'],
            properties: { jobs: { type: 'array', items: summarySchema }, next: { type: 'string', description: 'pass as ?before= for the next page; absent on the last page' } },
          },
          400: badRequestResponse,
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? DEFAULT_LIST_LIMIT : Number(request.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
        throw new ImprintError('INVALID_INPUT', `Invalid limit "${request.query.limit}": use a whole number from 1 to ${MAX_LIST_LIMIT}.`);
      }
      const { before } = request.query;
      // An unknown cursor lists nothing, as the stores answer it.
      const jobs = await deps.jobs.list(request.team, limit + 1, before);
      const page = jobs.slice(0, limit);
      return { jobs: page.map(summary), ...(jobs.length > limit ? { next: page[page.length - 1].id } : {}) };
    },
  );

  app.get<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id`,
    {
      schema: {
        summary: "A job's status, counts and each finished row's outcome",
        tags: ['jobs'],
        params: jobIdParams,
        response: {
          200: {
            type: 'object',
            required: [...summarySchema.required, 'archiveUrl', 'rows'],
            properties: { ...summaryProperties, rows: { type: 'array', items: rowSchema, description: 'finished rows in row order' } },
          },
          404: notFound,
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const job = await requireJob(request.team, request.params.id);
      const rows = (await deps.jobs.rows(job.id)).filter((row) => row.state === 'done' || row.state === 'failed');
      return { ...summary(job), rows: rows.map((row) => rowView(row, urls)) };
    },
  );

  // Streams end when the service stops, so a stop does not wait for their jobs: clients ask again (stream.ts).
  const streams = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const stop of streams) stop.abort();
  });

  app.get<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id/stream`,
    {
      schema: {
        summary: "The job's finished rows as they finish, each rendered row with its PDF, on one answer that ends with the job",
        externalDocs: { description: 'Jobs: Streaming', url: guideUrl('jobs', 'streaming') },
        tags: ['jobs'],
        params: jobIdParams,
        response: {
          200: {
            description: 'NDJSON: `{ "job": {...} }` lines (first, on changes, last), `{ "row": {...}, "pdf": "<base64>" }` per rendered row, `{ "row": { row, error, code } }` per failed row',
            content: { 'application/x-ndjson': { schema: { type: 'string' } } },
          },
          404: notFound,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const job = await requireJob(request.team, request.params.id);
      const stop = new AbortController();
      streams.add(stop);
      reply.raw.once('close', () => {
        streams.delete(stop);
        stop.abort();
      });
      const body = jobStream({ store: deps.store, jobs: deps.jobs, urls, pollMs: STREAM_POLL_MS, onError: (error) => request.log.error({ err: error }, 'streaming a job failed') }, request.team, job, stop.signal);
      return reply.type('application/x-ndjson').header('Cache-Control', 'private, no-store').send(body);
    },
  );

  app.get<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id/archive`,
    {
      schema: {
        summary: "Every finished PDF of the job in one zip, streamed, named by the job's `name` pattern",
        tags: ['jobs'],
        params: jobIdParams,
        response: {
          200: { description: 'a zip of the PDFs rendered so far', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
          404: notFound,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const job = await requireJob(request.team, request.params.id);
      const { stream } = await jobArchive(deps.store, await deps.jobs.rows(job.id), (error) => request.log.error({ err: error }, 'writing a job archive failed'));
      return reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="job-${job.id}.zip"`)
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  );

  app.delete<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id`,
    {
      schema: {
        summary: 'Cancel the rows not started yet (they are not counted); rows in progress finish',
        tags: ['jobs'],
        params: jobIdParams,
        response: { 200: summarySchema, 404: notFound, ...authErrorResponses },
      },
    },
    async (request) => {
      const job = await deps.jobs.cancel(request.team, request.params.id);
      if (!job) throw new ImprintError('NOT_FOUND', `No job ${request.params.id} for this team. List your jobs with GET /api/jobs.`);
      return summary(job);
    },
  );
}
