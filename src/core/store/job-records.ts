/**
 * What both store adapters share for jobs: the columns, the mapping from a row of the tables
 * to the records of the job store port, the rule that turns counts into a status, and the
 * refusal of a job that does not fit the team's limit. SQL stays in each adapter.
 */
import { ImprintError } from '../errors.js';
import type { JobRecord, JobSpec, JobStatus, RowRecord, RowState, WebhookAttempt } from '../jobs/job-types.js';
import type { Team } from './types.js';

export const JOB_COLUMNS = 'id, team_id, spec, status, total, done, failed, cancelled, created_at, finished_at, webhook_attempts, webhook_state, webhook_event';
export const ROW_COLUMNS = 'row, state, name, token, expires_at, error, error_code';

/**
 * What a job's spec holds only while its rows need it (docs/finishing.md): the encryption
 * passwords, and the documents merged into every row (their base64 bytes; the spec's `parts`
 * keeps their names and sizes). Both adapters erase these paths in the statement that
 * finishes the job (completed, failed or cancelled), so a finished job's stored record holds
 * no password and no merged document.
 */
export const JOB_SECRET_PATHS: readonly (readonly string[])[] = [
  ['options', 'encrypt', 'userPassword'],
  ['options', 'encrypt', 'ownerPassword'],
  ['options', 'prepend'],
  ['options', 'append'],
];

/**
 * The `spec` column (JSON text) without JOB_SECRET_PATHS, as an SQL expression of each
 * dialect: the erasure happens in the database, in the UPDATE that finishes the job, so the
 * spec (megabytes when it carries merged parts) is never parsed again in Node for it.
 */
export const SPEC_WITHOUT_SECRETS_SQL = {
  postgres: `(spec::jsonb ${JOB_SECRET_PATHS.map((path) => `#- '{${path.join(',')}}'`).join(' ')})::text`,
  sqlite: `json_remove(spec, ${JOB_SECRET_PATHS.map((path) => `'$.${path.join('.')}'`).join(', ')})`,
} as const;

export interface JobRow {
  id: string;
  team_id: number;
  spec: string;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  created_at: string;
  finished_at: string | null;
  webhook_attempts: string;
  webhook_state: string;
  webhook_event: string | null;
}

export interface RowRow {
  row: number;
  state: RowState;
  name: string | null;
  token: string | null;
  expires_at: string | null;
  error: string | null;
  error_code: string | null;
}

export function jobFromRow(row: JobRow): JobRecord {
  const spec = JSON.parse(row.spec) as JobSpec;
  return {
    id: row.id,
    teamId: row.team_id,
    spec,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    cancelled: row.cancelled,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    webhook: spec.webhookUrl ? { url: spec.webhookUrl, attempts: JSON.parse(row.webhook_attempts) as WebhookAttempt[], delivered: row.webhook_state === 'delivered', event: row.webhook_event } : null,
  };
}

export const rowFromRow = (row: RowRow): RowRecord => ({
  row: row.row,
  state: row.state,
  name: row.name,
  token: row.token,
  expiresAt: row.expires_at,
  error: row.error,
  code: row.error_code,
});

/**
 * The status a job's counts give. `cancelRequested`: DELETE was called. Every row finished:
 * cancelled if it was asked, failed if a row failed, else completed; otherwise running once
 * any row has started, queued before.
 */
export function statusOf(counts: { total: number; done: number; failed: number; cancelled: number }, cancelRequested: boolean, started: boolean): JobStatus {
  if (counts.done + counts.failed + counts.cancelled >= counts.total) {
    if (cancelRequested) return 'cancelled';
    return counts.failed > 0 ? 'failed' : 'completed';
  }
  return started ? 'running' : 'queued';
}

/**
 * The order claimInTurn serves teams in: teams never served first (by id), then as `served`
 * lists them (least recently served first). PostgreSQL's claim orders by the same rule in SQL
 * (COALESCE(array_position(served, team_id), 0), team_id): keep the two alike.
 */
export function teamsInTurn(teams: readonly number[], served: readonly number[]): number[] {
  const position = (team: number) => served.indexOf(team) + 1;
  return [...teams].sort((a, b) => position(a) - position(b) || a - b);
}

/**
 * statusOf as an SQL expression, for a store that counts and settles in one statement
 * (PostgreSQL's finishRow): the counts are SQL expressions for the job's counts after the
 * change. Keep the two rules alike.
 */
export function statusSql(counts: { total: string; done: string; failed: string; cancelled: string }, cancelRequested: string, started: string): string {
  return `CASE WHEN ${counts.done} + ${counts.failed} + ${counts.cancelled} >= ${counts.total}
              THEN CASE WHEN ${cancelRequested} THEN 'cancelled' WHEN ${counts.failed} > 0 THEN 'failed' ELSE 'completed' END
            WHEN ${started} THEN 'running' ELSE 'queued' END`;
}

/**
 * The units each row of a job holds: 1, or 0 for a test key's job (core/test-key.ts), which is
 * not counted, so it takes nothing at submit and gives nothing back when a row fails or is
 * cancelled. Both adapters take and give back `rows x unitsPerRow`.
 */
export const unitsPerRow = (spec: JobSpec | string): 0 | 1 => ((typeof spec === 'string' ? (JSON.parse(spec) as JobSpec) : spec).test ? 0 : 1);

/** The 422 of a job that would take the team past its limit: nothing of it is stored or rendered. */
export function jobOverLimit(team: Team, month: string, used: number, rows: number): ImprintError {
  const left = Math.max(team.generationLimit - used, 0);
  return new ImprintError(
    'LIMIT_EXCEEDED',
    `This job has ${rows} rows, but team "${team.name}" has ${left} of its ${team.generationLimit} generations left for ${month} (UTC); nothing was submitted. Submit at most ${left} rows, or ask the operator of this Imprint service to raise the limit.`,
  );
}

/** Rows in SQL statements are bound in chunks: SQLite and PostgreSQL both cap parameters per statement. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
