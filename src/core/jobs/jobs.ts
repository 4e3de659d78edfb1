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
import { couldBeStoredId } from '../store/stored-text.js';
import type { ClaimedRow, DueWebhook, FinishedRow, JobRecord, JobSpec, JobStore, RowInput, RowRecord, RowResult } from './job-types.js';
import type { JobQueue } from './job-queue.js';
import { parseJobRequest, type RowLimits } from './parse-job.js';
import { parseHtmlSourceFields } from '../html-source.js';
import { isTestKeyRender, markTestKey } from '../test-key.js';

/** How the rows of a job are rendered: the engine, without counting (the job holds the units). */
export interface RowRenderer {
  renderDocument(team: Team, templateUuid: string, props: unknown, options: RenderOptions, version: number): Promise<Buffer>;
  generate(team: Team, source: HtmlSource, options: RenderOptions): Promise<Buffer>;
}

/** Webhook deliveries (core/webhooks, wired by the server); absent: jobs with a webhook are refused. */
export interface WebhookSender {
  /** Refuses a webhook the team cannot have at submit: a URL the outbound policy denies (URL_DENIED), no signing secret yet. */
  checkTarget(teamId: number, url: string): Promise<string>;
  /** The body of a finished job's event (made once: the store freezes it, every attempt sends these bytes). */
  eventBody(job: JobRecord): string;
  /** Sends the event's body once, signed; answers what happened (a failure is an outcome, not a throw). */
  send(job: JobRecord, body: string): Promise<{ at: string; ok: boolean; status?: number; error?: string }>;
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
  /** A row tried this many times (failures not its own, nodes that died holding it) is failed: its one retry budget. */
  maxAttempts?: number;
  /** How deep and large one row may be (the service's props depth and body limits); parse-job.ts's defaults when absent. */
  rowLimits?: RowLimits;
  /** Told of every finished row (metrics). */
  onRow?: (outcome: 'done' | 'failed') => void;
  /** Told of what went wrong where no caller can be told (an outcome that could not be recorded). */
  onError?: (error: unknown) => void;
  /**
   * Called right after a job's transaction commits, before anything else happens to it: the
   * seam of the crash-point test (the server wires it to IMPRINT_TEST_EXIT_AFTER_JOB_COMMIT).
   */
  afterCommit?: (job: JobRecord) => void;
}

/**
 * What a job's watchers on this node hear (GET /api/jobs/{id}/stream): a row that this node
 * just finished, with its PDF while it is still in memory (so a watcher need not read it back
 * from storage), or the job's end. Rows other nodes finish are not heard here: a watcher
 * reads the store for those.
 */
export type JobEvent = { kind: 'row'; row: RowRecord; pdf?: Buffer } | { kind: 'finished' };

/** Failures that belong to the row itself: trying again would fail again, so the row fails alone. */
const ROW_FAILURES = new Set(['INVALID_INPUT', 'NOT_FOUND', 'RENDER_FAILED', 'RENDER_TIMEOUT', 'DOCUMENT_TOO_LARGE', 'URL_DENIED']);
const DEFAULT_MAX_ATTEMPTS = 5;
/** The pause before a row released for a reason not its own is tried again, times its attempts so far. */
const RETRY_AFTER_MS = 2000;

/**
 * The engine needs a team for isolation and the store calls; only the id matters to it, and
 * whether the job was a test key's (then the engine stamps each row, core/test-key.ts).
 */
function teamOf(teamId: number, spec: JobSpec): Team {
  const team: Team = { id: teamId, name: `#${teamId}`, generationLimit: 0, createdAt: '' };
  return spec.test ? markTestKey(team) : team;
}

export function createJobs(deps: JobsDeps) {
  const { jobs, queue } = deps;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const watchers = new Map<string, Set<(event: JobEvent) => void>>();
  const tell = (jobId: string, event: JobEvent) => {
    for (const listener of watchers.get(jobId) ?? []) listener(event);
  };
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
    if (spec.kind === 'document') return deps.renderer.renderDocument(teamOf(teamId, spec), spec.templateUuid, input, options, spec.version);
    const { html, url } = parseHtmlSourceFields(input);
    const source: HtmlSource = { html, url: url === undefined ? undefined : await deps.checkRenderUrl(url) };
    return deps.renderer.generate(teamOf(teamId, spec), source, options);
  }

  /** A job that just finished may have a webhook due now: the store scheduled it, the queue looks. */
  function afterFinish(finished: JobRecord | undefined) {
    if (!finished) return;
    tell(finished.id, { kind: 'finished' });
    if (finished.webhook) queue.wake();
  }

  /**
   * Records a row's outcome; when that cannot be done (text the database refuses, a constraint),
   * the row is failed with a short reason instead, so no row stays running and its unit comes
   * back. If even that fails (the database is gone) the row's lease runs out and it is claimed
   * again, within its retry budget.
   */
  async function record(claim: ClaimedRow, result: RowResult): Promise<{ finished: FinishedRow; result: RowResult }> {
    try {
      return { finished: await jobs.finishRow(claim, result), result };
    } catch (error) {
      deps.onError?.(error);
      const code = isImprintError(error) ? error.code : 'INTERNAL';
      const failed: RowResult = { ok: false, code: 'INTERNAL', error: `Row ${claim.row}'s outcome could not be recorded (${code}); the row was failed and its unit given back.` };
      return { finished: await jobs.finishRow(claim, failed), result: failed };
    }
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
      // A test key's job: its rows stamped, none of them counted (the store takes no units for it).
      if (isTestKeyRender(team)) spec.test = true;
      if (request.webhookUrl !== undefined) {
        if (!deps.webhooks) throw new ImprintError('INVALID_INPUT', 'This service does not send webhooks yet: submit the job without "webhook" and poll its statusUrl.');
        spec.webhookUrl = await deps.webhooks.checkTarget(team.id, request.webhookUrl);
      }
      // One transaction: the job, its rows and their units. The rows are the queue, so once it
      // commits the job runs, whatever happens to this node next.
      const job = await jobs.createJob({ id: randomUUID(), teamId: team.id, spec, rows: request.rows });
      deps.afterCommit?.(job);
      queue.wake();
      return job;
    },

    /** Hears the job's rows this node finishes and its end, until the answer is called. */
    watch(jobId: string, listener: (event: JobEvent) => void): () => void {
      let set = watchers.get(jobId);
      if (!set) watchers.set(jobId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(jobId) === set) watchers.delete(jobId);
      };
    },

    // An id no store can hold (a NUL byte) is an unknown id, for every face alike (stored-text.ts).
    get: async (team: Team, jobId: string) => (couldBeStoredId(jobId) ? jobs.getJob(team.id, jobId) : undefined),
    rows: (jobId: string) => jobs.rows(jobId),
    list: async (team: Team, limit: number, before?: string) => (before !== undefined && !couldBeStoredId(before) ? [] : jobs.listJobs(team.id, limit, before)),

    async cancel(team: Team, jobId: string) {
      if (!couldBeStoredId(jobId)) return undefined;
      const cancelled = await jobs.cancelJob(team.id, jobId);
      if (cancelled) afterFinish(cancelled.finishedJob);
      return cancelled?.job;
    },

    /** The worker's side of one claimed row: render, keep, record. `rendered`: told when the render is over (the queue's slot is free). */
    async runRow(claim: ClaimedRow, rendered: () => void = () => undefined): Promise<void> {
      const { teamId, spec, total } = await specOf(claim.jobId);
      let result: RowResult;
      let pdf: Buffer | undefined;
      if (claim.attempt > maxAttempts) {
        // Claimed again after its last attempt's node stopped holding it (a node that died,
        // again and again): the budget is spent, the row fails without another render.
        result = { ok: false, code: 'INTERNAL', error: `Row ${claim.row} was tried ${maxAttempts} times without an outcome (the service stopped while rendering it); it was failed and its unit given back.` };
      } else {
        try {
          const named = fileNameFor(spec.name ?? DEFAULT_NAME_PATTERN, claim.input, claim.row, total);
          if (!named.ok) throw new ImprintError('INVALID_INPUT', `Row ${claim.row} has no file name: ${named.reason}.`);
          pdf = await renderRow(teamId, spec, claim.input).finally(rendered);
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
      }
      const recorded = await record(claim, result);
      if (recorded.finished.applied) {
        deps.onRow?.(recorded.result.ok ? 'done' : 'failed');
        const { ok } = recorded.result;
        const row: RowRecord = recorded.result.ok
          ? { row: claim.row, state: 'done', name: recorded.result.name, token: recorded.result.token, expiresAt: recorded.result.expiresAt, error: null, code: null }
          : { row: claim.row, state: 'failed', name: null, token: null, expiresAt: null, error: recorded.result.error, code: recorded.result.code };
        tell(claim.jobId, { kind: 'row', row, ...(ok && pdf ? { pdf } : {}) });
      }
      afterFinish(recorded.finished.finishedJob);
    },

    /**
     * One delivery attempt of a finished job's webhook; a failure schedules the next by the
     * backoff. The event's body is made once (frozen in the store) and sent as it is on every
     * attempt: the attempts so far show in the job's status, never in the event.
     */
    async deliverWebhook(due: DueWebhook): Promise<void> {
      const job = await jobs.jobById(due.jobId);
      if (!job?.webhook || job.webhook.delivered || !deps.webhooks || job.finishedAt === null) return;
      const body = job.webhook.event ?? (await jobs.freezeWebhookEvent(job.id, deps.webhooks.eventBody(job)));
      const outcome = await deps.webhooks.send(job, body);
      const delay = outcome.ok ? undefined : deps.webhooks.retryDelayMs(due.attempt);
      const nextAt = delay === undefined ? undefined : new Date(Date.parse(outcome.at) + delay).toISOString();
      await jobs.recordWebhookAttempt(job.id, { at: outcome.at, ok: outcome.ok, status: outcome.status, error: outcome.error }, nextAt);
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
    ...(job.spec.test ? { test: true } : {}),
    ...(job.webhook ? { webhook: { url: job.webhook.url, attempts: job.webhook.attempts } } : {}),
  };
}

export type Jobs = ReturnType<typeof createJobs>;
