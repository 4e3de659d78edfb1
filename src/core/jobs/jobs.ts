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
import { disposePdf, isSpooled, type PdfBytes } from '../spool/spooled-pdf.js';
import { randomUUID } from 'node:crypto';
import { ImprintError, isImprintError } from '../errors.js';
import { DEFAULT_NAME_PATTERN, fileNameFor } from '../file-name-pattern.js';
import type { PrintOptions, RenderFor } from '../engine.js';
import type { HtmlSource } from '../render/render-html.js';
import type { IssuedFile, ResolvedTemplate, Store, Team } from '../store/index.js';
import { couldBeStoredId } from '../store/stored-text.js';
import type { ClaimedRow, DueWebhook, FinishedRow, JobRecord, JobSpec, JobStore, RowInput, RowRecord, RowResult } from './job-types.js';
import { shownParts } from '../pdf/merge/parts.js';
import type { JobQueue } from './job-queue.js';
import type { JobUrls } from './job-view.js';
import { jobWebhookEventBody } from './job-webhook-event.js';
import { parseJobRequest, type RowLimits } from './parse-job.js';
import { parseHtmlSourceFields } from '../html-source.js';
import { isTestKeyRender } from '../test-key.js';

/**
 * How the rows of a job are rendered (the engine, core/engine.ts): to PDF bytes, for the job's
 * team, from the version the job pinned; not counted (the job holds the units).
 */
export interface RowRenderer {
  renderPinned(caller: RenderFor, template: ResolvedTemplate, props: unknown, options: PrintOptions): Promise<PdfBytes>;
  generatePdf(caller: RenderFor, source: HtmlSource, options: PrintOptions): Promise<PdfBytes>;
}

/** Webhook deliveries (core/webhooks, wired by the server); absent: jobs with a webhook are refused. */
export interface WebhookSender {
  /** Refuses a webhook the team cannot have at submit: a URL the outbound policy denies (URL_DENIED), no signing secret yet. */
  checkTarget(teamId: number, url: string): Promise<string>;
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
  /** Where a job's URLs point, for its webhook event (the server's urls.ts). */
  urls: JobUrls;
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

/** What a job's rows render with, read once per job (a spec never changes after submit). */
interface JobPlan {
  spec: JobSpec;
  total: number;
  /** The job's team, and whether a test key submitted it (every row stamped, core/test-key.ts). */
  caller: RenderFor;
  /** A document job's pinned version. */
  template?: ResolvedTemplate;
}

/** Test mode (a test key, or its dashboard session) sees test jobs only; a live key sees them all. */
const visibleTo = (team: Team, job: JobRecord) => !isTestKeyRender(team) || job.spec.test === true;

/** Plans kept per process: a worker's rows are mostly of a few jobs at a time. */
const PLANS_KEPT = 256;

export function createJobs(deps: JobsDeps) {
  const { jobs, queue } = deps;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const watchers = new Map<string, Set<(event: JobEvent) => void>>();
  const tell = (jobId: string, event: JobEvent) => {
    for (const listener of watchers.get(jobId) ?? []) listener(event);
  };
  /** One plan per job, the promise kept so rows claimed together share one read. */
  const plans = new Map<string, Promise<JobPlan>>();

  /**
   * A document job's version as it was pinned at submit. A job stored before submit pinned
   * the whole version (its spec has no `pinned`) has its version looked up here, once.
   */
  async function pinnedOf(teamId: number, spec: Extract<JobSpec, { kind: 'document' }>): Promise<ResolvedTemplate> {
    if (!spec.pinned) return deps.store.resolveTemplate(teamId, spec.templateUuid, spec.version);
    return { id: spec.templateId, uuid: spec.templateUuid, version: spec.version, ...spec.pinned };
  }

  async function readPlan(jobId: string): Promise<JobPlan> {
    const job = await jobs.jobById(jobId);
    if (!job) throw new ImprintError('INTERNAL', `Job ${jobId} has rows but no record.`);
    const { spec } = job;
    const caller: RenderFor = { teamId: job.teamId, test: spec.test === true };
    return { spec, total: job.total, caller, template: spec.kind === 'document' ? await pinnedOf(job.teamId, spec) : undefined };
  }

  function planOf(jobId: string): Promise<JobPlan> {
    let plan = plans.get(jobId);
    if (!plan) {
      plan = readPlan(jobId);
      // A failed read (the database away) is not kept: the row's retry reads again.
      plan.catch(() => plans.get(jobId) === plan && plans.delete(jobId));
      if (plans.size >= PLANS_KEPT) plans.delete(plans.keys().next().value as string);
      plans.set(jobId, plan);
    }
    return plan;
  }

  async function renderRow(plan: JobPlan, input: RowInput): Promise<PdfBytes> {
    const { spec, caller, template } = plan;
    if (template) return deps.renderer.renderPinned(caller, template, input, spec.options);
    const { html, url } = parseHtmlSourceFields(input);
    const source: HtmlSource = { html, url: url === undefined ? undefined : await deps.checkRenderUrl(url) };
    return deps.renderer.generatePdf(caller, source, spec.options);
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

  /**
   * A job of the team as `team` may see it. An id no store can hold (a NUL byte) is an unknown
   * id, for every face alike (stored-text.ts); so, for a test key (or its dashboard session),
   * is a job no test key submitted: test mode reads and cancels test jobs only, as another
   * team's job is unknown to this one. A live key sees every job of its team.
   */
  async function visibleJob(team: Team, jobId: string): Promise<JobRecord | undefined> {
    const job = couldBeStoredId(jobId) ? await jobs.getJob(team.id, jobId) : undefined;
    return job && visibleTo(team, job) ? job : undefined;
  }

  return {
    /** Checks the body, pins the template version, takes the units and stores the job; the queue then has its rows. */
    async submit(team: Team, body: unknown): Promise<JobRecord> {
      const request = parseJobRequest(body, deps.rowLimits);
      let spec: JobSpec;
      if (request.template !== undefined) {
        // Pinned now, whole: every row renders the version that was current at submit (or the one
        // asked for) from its artifact and schema as they were, without looking it up again.
        const template = await deps.store.resolveTemplate(team.id, request.template, request.version);
        const pinned = { artifactSha256: template.artifactSha256, propsSchema: template.propsSchema, publishedAt: template.publishedAt };
        spec = { kind: 'document', templateId: template.id, templateUuid: template.uuid, version: template.version, pinned, options: request.options };
      } else {
        spec = { kind: 'generate', options: request.options };
      }
      if (request.name !== undefined) spec.name = request.name;
      const parts = shownParts(request.options);
      if (parts) spec.parts = parts;
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

    get: visibleJob,
    rows: (jobId: string) => jobs.rows(jobId),
    list: async (team: Team, limit: number, before?: string) =>
      before !== undefined && !couldBeStoredId(before) ? [] : jobs.listJobs(team.id, limit, before, isTestKeyRender(team)),

    async cancel(team: Team, jobId: string) {
      if (!couldBeStoredId(jobId)) return undefined;
      // A job's mode never changes, so looking first leaves no gap: test mode cancels test jobs only.
      if (isTestKeyRender(team) && !(await visibleJob(team, jobId))) return undefined;
      const cancelled = await jobs.cancelJob(team.id, jobId);
      if (cancelled) afterFinish(cancelled.finishedJob);
      return cancelled?.job;
    },

    /** The worker's side of one claimed row: render, keep, record. `rendered`: told when the render is over (the queue's slot is free). */
    async runRow(claim: ClaimedRow, rendered: () => void = () => undefined): Promise<void> {
      let result: RowResult;
      // Told to a live stream with the row when held in memory; a spooled one (spool/spooled-pdf.ts) is read from the store there.
      let pdf: Buffer | undefined;
      if (claim.attempt > maxAttempts) {
        // Claimed again after its last attempt's node stopped holding it (a node that died,
        // again and again): the budget is spent, the row fails without another render.
        result = { ok: false, code: 'INTERNAL', error: `Row ${claim.row} was tried ${maxAttempts} times without an outcome (the service stopped while rendering it); it was failed and its unit given back.` };
      } else {
        try {
          // In here: an old job whose template was deleted fails its rows as NOT_FOUND (pinnedOf).
          const plan = await planOf(claim.jobId);
          const named = fileNameFor(plan.spec.name ?? DEFAULT_NAME_PATTERN, claim.input, claim.row, plan.total);
          if (!named.ok) throw new ImprintError('INVALID_INPUT', `Row ${claim.row} has no file name: ${named.reason}.`);
          const printed = await renderRow(plan, claim.input).finally(rendered);
          let issued: IssuedFile;
          try {
            issued = await deps.store.issueFile(plan.caller.teamId, printed, deps.urlTtlMs);
          } finally {
            await disposePdf(printed);
          }
          if (!isSpooled(printed)) pdf = printed;
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
      const body = job.webhook.event ?? (await jobs.freezeWebhookEvent(job.id, jobWebhookEventBody(job, deps.urls)));
      const outcome = await deps.webhooks.send(job, body);
      const delay = outcome.ok ? undefined : deps.webhooks.retryDelayMs(due.attempt);
      const nextAt = delay === undefined ? undefined : new Date(Date.parse(outcome.at) + delay).toISOString();
      await jobs.recordWebhookAttempt(job.id, { at: outcome.at, ok: outcome.ok, status: outcome.status, error: outcome.error }, nextAt);
    },
  };
}

export type Jobs = ReturnType<typeof createJobs>;
