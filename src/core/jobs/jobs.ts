/**
 * Jobs as the core runs them (api.md Part D): submit (checked, pinned, stored with its units
 * taken), the worker's side of a row (render through the engine, keep the PDF as an issued
 * file, record the outcome), cancel, and the webhook deliveries of finished jobs. The server
 * only translates these to HTTP.
 *
 * Row URLs: the store keeps only the hash of an issued file's token (issued-files.ts), so a
 * row's URL could not be rebuilt from it. The job row keeps the token itself: the status of a
 * job must show every row's link for as long as the link lives, and that status is answered
 * only to the team that owns the job (the token is what the team was given anyway). Whoever can
 * read the job tables can download those PDFs until they expire; the issued_files table alone
 * still yields nothing.
 */
import { randomUUID } from 'node:crypto';
import { ImprintError, isImprintError } from '../errors.js';
import { DEFAULT_NAME_PATTERN, fileNameFor } from '../file-name-pattern.js';
import type { RenderOptions } from '../render-request.js';
import type { HtmlSource } from '../render/render-html.js';
import type { Store, Team } from '../store/index.js';
import type { ClaimedRow, JobRecord, JobSpec, JobStore, RowInput, RowResult } from './job-types.js';
import type { JobQueue } from './job-queue.js';
import { parseJobRequest, type RowLimits } from './parse-job.js';
import { parseHtmlSourceFields } from '../html-source.js';

/** How the rows of a job are rendered: the engine, without counting (the job holds the units). */
export interface RowRenderer {
  renderDocument(team: Team, templateUuid: string, props: unknown, options: RenderOptions, version: number): Promise<Buffer>;
  generate(team: Team, source: HtmlSource, options: RenderOptions): Promise<Buffer>;
}

/** Webhook deliveries (core/webhooks, wired by the server); absent: jobs with a webhook are refused. */
export interface WebhookSender {
  /** Refuses a webhook the team cannot have at submit: a URL the outbound policy denies (URL_DENIED), no signing secret yet. */
  checkTarget(teamId: number, url: string): Promise<string>;
  /** Sends the finished job's event once, signed; answers what happened (a failure is an outcome, not a throw). */
  send(job: JobRecord): Promise<{ at: string; ok: boolean; status?: number; error?: string }>;
  /** Delay before attempt `attempt + 1` after attempt `attempt` failed; undefined: no attempts left. */
  retryDelayMs(attempt: number): number | undefined;
}

export interface JobsDeps {
  store: Store;
  jobs: JobStore;
  queue: JobQueue;
  renderer: RowRenderer;
  /** Judges an A2 row's `url` by the operator's policy (core/url-access.ts); answers it normalised. */
  checkRenderUrl(url: string): Promise<string>;
  urlTtlMs: number;
  webhooks?: WebhookSender;
  /** A row that fails this many times for reasons not its own (the browser, the database) is failed. */
  maxAttempts?: number;
  /** How deep and large one row may be (the service's props depth and body limits); parse-job.ts's defaults when absent. */
  rowLimits?: RowLimits;
  /** Told of every finished row (metrics). */
  onRow?: (outcome: 'done' | 'failed') => void;
}

/** Failures that belong to the row itself: trying again would fail again, so the row fails alone. */
const ROW_FAILURES = new Set(['INVALID_INPUT', 'NOT_FOUND', 'RENDER_FAILED', 'RENDER_TIMEOUT', 'DOCUMENT_TOO_LARGE', 'URL_DENIED']);
const DEFAULT_MAX_ATTEMPTS = 5;
/** The pause before a row released for a reason not its own is tried again, times its attempts so far. */
const RETRY_AFTER_MS = 2000;

/** The engine needs a team for isolation and the store calls; only the id matters to it. */
const teamOf = (teamId: number): Team => ({ id: teamId, name: `#${teamId}`, generationLimit: 0, createdAt: '' });

export function createJobs(deps: JobsDeps) {
  const { jobs, queue } = deps;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  /** Specs never change after submit: one read per job per process. */
  const specs = new Map<string, { teamId: number; spec: JobSpec; total: number }>();

  async function specOf(jobId: string) {
    let known = specs.get(jobId);
    if (!known) {
      const job = await jobs.jobById(jobId);
      if (!job) throw new ImprintError('INTERNAL', `Job ${jobId} has rows but no record.`);
      known = { teamId: job.teamId, spec: job.spec, total: job.total };
      if (specs.size > 256) specs.delete(specs.keys().next().value as string);
      specs.set(jobId, known);
    }
    return known;
  }

  async function renderRow(teamId: number, spec: JobSpec, input: RowInput): Promise<Buffer> {
    const options = { ...spec.options, format: 'pdf' as const };
    if (spec.kind === 'document') return deps.renderer.renderDocument(teamOf(teamId), spec.templateUuid, input, options, spec.version);
    const { html, url } = parseHtmlSourceFields(input);
    const source: HtmlSource = { html, url: url === undefined ? undefined : await deps.checkRenderUrl(url) };
    return deps.renderer.generate(teamOf(teamId), source, options);
  }

  async function afterFinish(finished: JobRecord | undefined) {
    if (finished?.webhook) await queue.enqueueWebhook(finished.id, 1, 0);
  }

  return {
    /** Checks the body, pins the template version, takes the units and stores the job; the queue then has its rows. */
    async submit(team: Team, body: unknown): Promise<JobRecord> {
      const request = parseJobRequest(body, deps.rowLimits);
      let spec: JobSpec;
      if (request.template !== undefined) {
        // Pinned now: every row renders the version that was current at submit (or the one asked for).
        const template = await deps.store.resolveTemplate(team.id, request.template, request.version);
        spec = { kind: 'document', templateId: template.id, templateUuid: template.uuid, version: template.version, options: request.options };
      } else {
        spec = { kind: 'generate', options: request.options };
      }
      if (request.name !== undefined) spec.name = request.name;
      if (request.webhookUrl !== undefined) {
        if (!deps.webhooks) throw new ImprintError('INVALID_INPUT', 'This service does not send webhooks yet: submit the job without "webhook" and poll its statusUrl.');
        spec.webhookUrl = await deps.webhooks.checkTarget(team.id, request.webhookUrl);
      }
      const job = await jobs.createJob({ id: randomUUID(), teamId: team.id, spec, rows: request.rows });
      await queue.enqueueRows(job.id, job.total);
      return job;
    },

    get: (team: Team, jobId: string) => jobs.getJob(team.id, jobId),
    rows: (jobId: string) => jobs.rows(jobId),
    list: (team: Team, limit: number, before?: string) => jobs.listJobs(team.id, limit, before),

    async cancel(team: Team, jobId: string) {
      const cancelled = await jobs.cancelJob(team.id, jobId);
      if (cancelled) await afterFinish(cancelled.finishedJob);
      return cancelled?.job;
    },

    /** The worker's side of one claimed row: render, keep, record. */
    async runRow(claim: ClaimedRow): Promise<void> {
      const { teamId, spec, total } = await specOf(claim.jobId);
      let result: RowResult;
      try {
        const named = fileNameFor(spec.name ?? DEFAULT_NAME_PATTERN, claim.input, claim.row, total);
        if (!named.ok) throw new ImprintError('INVALID_INPUT', `Row ${claim.row} has no file name: ${named.reason}.`);
        const pdf = await renderRow(teamId, spec, claim.input);
        const issued = await deps.store.issueFile(teamId, pdf, deps.urlTtlMs);
        result = { ok: true, name: named.name, token: issued.token, expiresAt: issued.expiresAt };
      } catch (error) {
        const own = isImprintError(error) && ROW_FAILURES.has(error.code);
        if (!own && claim.attempt < maxAttempts) {
          // Not the row's fault (the browser, a full queue, the database): it goes back and is
          // tried again a little later, so a passing trouble is not met again at once.
          await jobs.releaseRow(claim, RETRY_AFTER_MS * claim.attempt);
          throw error;
        }
        result = { ok: false, error: (error as Error).message, code: isImprintError(error) ? error.code : 'INTERNAL' };
      }
      const finished = await jobs.finishRow(claim, result);
      if (finished.applied) deps.onRow?.(result.ok ? 'done' : 'failed');
      await afterFinish(finished.finishedJob);
    },

    /** One delivery attempt of a finished job's webhook; a failure schedules the next by the backoff. */
    async deliverWebhook(jobId: string, attempt: number): Promise<void> {
      const job = await jobs.jobById(jobId);
      if (!job?.webhook || job.webhook.delivered || !deps.webhooks || job.finishedAt === null) return;
      const made = job.webhook.attempts.length;
      if (made >= attempt) {
        // This attempt was made already (its queue message came back: the node that made it
        // stopped before it was done): it is not sent again, but the next one must be queued.
        if (made === attempt) {
          const delay = deps.webhooks.retryDelayMs(attempt);
          if (delay !== undefined) await queue.enqueueWebhook(jobId, attempt + 1, Math.max(0, Date.parse(job.webhook.attempts[made - 1].at) + delay - Date.now()));
        }
        return;
      }
      const outcome = await deps.webhooks.send(job);
      const delay = outcome.ok ? undefined : deps.webhooks.retryDelayMs(attempt);
      const nextAt = delay === undefined ? undefined : new Date(Date.parse(outcome.at) + delay).toISOString();
      await jobs.recordWebhookAttempt(jobId, { at: outcome.at, ok: outcome.ok, status: outcome.status, error: outcome.error }, nextAt);
      if (delay !== undefined) await queue.enqueueWebhook(jobId, attempt + 1, delay);
    },

    /**
     * A row that was finished already came back from the queue: the node that finished it may
     * have stopped before the job's webhook was queued, so it is queued now if it is due and
     * none was made (the queue drops a message it already holds).
     */
    async rowSeenFinished(jobId: string): Promise<void> {
      const job = await jobs.jobById(jobId);
      if (job?.webhook && job.finishedAt !== null && !job.webhook.delivered && job.webhook.attempts.length === 0) await queue.enqueueWebhook(jobId, 1, 0);
    },
  };
}

/** A job as GET /api/jobs lists it and a webhook event carries it: no rows. */
export function jobSummary(job: JobRecord) {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    cancelled: job.cancelled,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    ...(job.spec.kind === 'document' ? { template: job.spec.templateId, version: job.spec.version } : {}),
    ...(job.spec.name ? { name: job.spec.name } : {}),
    ...(job.webhook ? { webhook: { url: job.webhook.url, attempts: job.webhook.attempts } } : {}),
  };
}

export type Jobs = ReturnType<typeof createJobs>;
