/**
 * Jobs (api.md Part D): many documents from one request. A job is its spec (what every row
 * renders with), its rows (each one document's input) and their outcomes. The job store
 * (one adapter per store: SQLite, PostgreSQL) keeps all of it durably; the queue
 * (job-queue.ts) only says which row to work on next.
 *
 * Counting: a job takes all its units of the team's monthly limit at submit, in the same
 * transaction that stores it, and only if they all fit (else 422, nothing stored). Each unit
 * then belongs to one row, not to a node: a row that succeeds keeps it, a row that fails or
 * is cancelled gives it back in the same transaction that records that outcome, and only the
 * transaction that moves a row out of an unfinished state does so (a conditional UPDATE), so
 * a row counts once however many times it is run. A node that dies mid-row holds nothing:
 * the row is still unfinished in the store, its unit still held by the job, and another
 * claim (after the lease runs out) finishes it. A test key's job (spec.test) takes no units and
 * so gives none back (unitsPerRow in store/job-records.ts).
 *
 * The job tables are the queue on both databases (table-queue.ts): a row's state, its lease
 * and its attempts are one record, so "what runs next" has one owner, a submit is one
 * transaction, and a row has one retry budget (its `attempt`).
 */
import type { RenderOptions } from '../render-request.js';
import type { ShownParts } from '../pdf/merge/parts.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const FINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The template version a document job renders, pinned at submit with what its rows need from
 * it: its artifact (by hash), its props schema and its publication date (a deterministic
 * render's date). Rows render it as it was then, whatever is published or rolled back later,
 * and nothing of it is looked up again (api.md Part E).
 */
export interface PinnedVersion {
  artifactSha256: string;
  propsSchema: object | null;
  publishedAt: string;
}

/** What every row of a job renders with, fixed at submit. */
export type JobSpec = (
  | {
      kind: 'document';
      templateId: string;
      templateUuid: string;
      version: number;
      /** Absent in jobs stored before versions were pinned whole: looked up once per job when its rows run (jobs.ts pinnedOf). */
      pinned?: PinnedVersion;
      options: RenderOptions;
      name?: string;
      webhookUrl?: string;
    }
  | { kind: 'generate'; options: RenderOptions; name?: string; webhookUrl?: string }
) & {
  /** Submitted with a test key (core/test-key.ts): every row is stamped TEST and no row takes a unit. */
  test?: true;
  /** The options' prepend/append as the job shows them (names, sizes, URLs): kept after the parts themselves are dropped at the job's end. */
  parts?: ShownParts;
};

/** One row's input: A1 props, or A2 `{ html?, url? }`. */
export type RowInput = Record<string, unknown>;

export type RowState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export type RowResult =
  | { ok: true; name: string; token: string; expiresAt: string }
  | { ok: false; error: string; code: string };

export interface NewJob {
  id: string;
  teamId: number;
  spec: JobSpec;
  rows: RowInput[];
}

export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why no 2xx came (a timeout, a refused address...). */
  error?: string;
}

export interface JobRecord {
  id: string;
  teamId: number;
  spec: JobSpec;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  createdAt: string;
  finishedAt: string | null;
  /**
   * `event`: the body of the job's event, fixed the first time it was made (frozen: every
   * attempt sends these bytes); null until then.
   */
  webhook: { url: string; attempts: WebhookAttempt[]; delivered: boolean; event: string | null } | null;
}

export interface RowRecord {
  row: number;
  state: RowState;
  name: string | null;
  token: string | null;
  expiresAt: string | null;
  error: string | null;
  code: string | null;
}

/** A row handed to a worker: its input and the claim that owns it (only the latest claim may finish it). */
export interface ClaimedRow {
  jobId: string;
  row: number;
  attempt: number;
  input: RowInput;
}

/** A claimed row and its job's team: the team the queue's turn went to. */
export interface TeamClaim extends ClaimedRow {
  teamId: number;
}

/** What finishing a row changed: whether it counted, and the job when the row finished it. */
export interface FinishedRow {
  applied: boolean;
  /** Set when this row was the job's last: the job in its final state (its webhook is due). */
  finishedJob?: JobRecord;
}

/** A webhook delivery that is due, claimed by one worker. */
export interface DueWebhook {
  jobId: string;
  teamId: number;
  attempt: number;
}

/** The job store port: both store adapters implement it with the same rules (see above). */
export interface JobStore {
  /** Stores the job and its rows and takes their units; LIMIT_EXCEEDED (nothing stored) when they do not fit. */
  createJob(job: NewJob): Promise<JobRecord>;
  getJob(teamId: number, jobId: string): Promise<JobRecord | undefined>;
  /** A job by id alone, for workers. */
  jobById(jobId: string): Promise<JobRecord | undefined>;
  /** The team's jobs, newest first, after the job `before`; `testOnly`: only jobs a test key submitted (spec.test), the cursor too. */
  listJobs(teamId: number, limit: number, before?: string, testOnly?: boolean): Promise<JobRecord[]>;
  rows(jobId: string): Promise<RowRecord[]>;
  /**
   * Claims up to `limit` rows with the teams in turn: a row of each team with work, then a
   * second of each, and so on; the teams ordered as `served` lists them (least recently served
   * first), those not in it before all of them (job-records.ts teamsInTurn); of each team, rows
   * queued (their not-before time passed) or whose lease ran out, oldest job first. Answers them
   * in that order, each with its team. One statement on PostgreSQL: the queue's claim is one
   * round trip, however many teams have work.
   */
  claimInTurn(limit: number, leaseMs: number, served: readonly number[]): Promise<TeamClaim[]>;
  /** Extends a claimed row's lease while `attempt` still owns it (the row is still being worked on); false once it does not. */
  renewRow(claim: ClaimedRow, leaseMs: number): Promise<boolean>;
  /** Records a row's outcome if `attempt` still owns it; a failure gives its unit back, a rendered row of a counted job adds one to its team's day (the dashboard's usage_daily), all in one transaction. */
  finishRow(claim: ClaimedRow, result: RowResult): Promise<FinishedRow>;
  /** Puts a claimed row back unstarted (this node could not work on it now), to be claimed again after `retryAfterMs`. */
  releaseRow(claim: ClaimedRow, retryAfterMs: number): Promise<void>;
  /** Cancels the rows not started yet and gives their units back; undefined for an unknown job. */
  cancelJob(teamId: number, jobId: string): Promise<{ job: JobRecord; cancelledRows: number; finishedJob?: JobRecord } | undefined>;
  /** Rows waiting or running, over all jobs (a metric). */
  queueDepth(): Promise<number>;
  /**
   * Claims up to `limit` webhook deliveries that are due, at most one per team and none of
   * the teams in `skipTeams` (the queue's per-team limit: a team's slow receivers hold only
   * that team's deliveries), earliest due first.
   */
  claimWebhooks(limit: number, leaseMs: number, skipTeams?: readonly number[]): Promise<DueWebhook[]>;
  /**
   * Fixes the body of a finished job's event: stores `body` unless one is stored already, and
   * answers the stored one (every attempt sends the same bytes).
   */
  freezeWebhookEvent(jobId: string, body: string): Promise<string>;
  /** Records one delivery attempt; `nextAt` schedules another, none ends the deliveries. */
  recordWebhookAttempt(jobId: string, attempt: WebhookAttempt & { ok: boolean }, nextAt: string | undefined): Promise<void>;
}
