/**
 * The job store on PostgreSQL (the rules are job-types.ts's; the SQLite adapter is
 * ../sqlite/jobs.ts). Every change is one transaction that locks the job's row, so the outcomes
 * of one job's rows, finished on several nodes at once, are applied one at a time: a row's
 * outcome, its unit given back and the job's counts and status move together. The job path's
 * two writes, a claim and a row's outcome, are single statements, each its own transaction: one
 * round trip each (CLAIM_IN_TURN_SQL, FINISH_ROW_SQL).
 * Units are held by the job's rows, not by a node: a node that dies leaves them held until
 * another node finishes its rows.
 */
import type { ClaimedRow, FinishedRow, JobRecord, JobStore, NewJob, RowInput, RowResult, TeamClaim, WebhookAttempt } from '../../jobs/job-types.js';
import { chunks, JOB_COLUMNS, jobFromRow, jobOverLimit, ROW_COLUMNS, rowFromRow, SPEC_WITHOUT_SECRETS_SQL, statusOf, statusSql, unitsPerRow, type JobRow, type RowRow } from '../job-records.js';
import { storableJson, storableText } from '../stored-text.js';
import { monthOf, toIso } from '../time.js';
import { giveBackUnitsSql, takeUnitsSql } from '../quota-rule.js';
import { countDaySql } from '../dashboard/usage-daily.js';
import { prepared, transaction, type Queryable } from './connect.js';
import { reclaimExpired } from './generation-quota.js';
import type { PgContext, PgTeams } from './teams.js';

interface JobState extends JobRow {
  month: string;
  started: boolean;
  cancel_requested: boolean;
}

const ROWS_PER_INSERT = 1000;
const FINAL_STATUSES = new Set(['completed', 'failed', 'cancelled']);

/**
 * claimInTurn in one statement: the teams with work ordered as teamsInTurn orders them ($4:
 * the teams served, least recently first), up to $2 claimable rows of each team (its jobs
 * oldest first, each job's rows through the job_rows_open index, so a claim reads the rows
 * it may take, not the thousands a long job has finished), numbered within their team; the
 * first $2 by (that number, the team's turn) locked (SKIP LOCKED: nodes claiming at once take
 * different rows instead of waiting on each other), leased, and their jobs marked started.
 * $1: now; $3: the lease's end.
 */
const CLAIM_IN_TURN_SQL = `WITH teams AS (
    SELECT team_id, COALESCE(array_position($4::int[], team_id), 0) AS pos
      FROM (SELECT DISTINCT team_id FROM jobs WHERE status IN ('queued', 'running')) AS with_work),
  picked AS (
    SELECT t.team_id, t.pos, p.job_id, p.row,
           row_number() OVER (PARTITION BY t.team_id ORDER BY p.created_at, p.job_id, p.row) AS turn
      FROM teams t CROSS JOIN LATERAL (
        SELECT j.id AS job_id, r.row, j.created_at FROM jobs j CROSS JOIN LATERAL (
            SELECT r.row FROM job_rows r
             WHERE r.job_id = j.id AND r.state IN ('queued', 'running') AND (r.lease_until IS NULL OR r.lease_until <= $1)
             ORDER BY r.row LIMIT $2 FOR UPDATE SKIP LOCKED) r
         WHERE j.team_id = t.team_id AND j.status IN ('queued', 'running')
         ORDER BY j.created_at, j.id, r.row LIMIT $2) p
     ORDER BY turn, t.pos, t.team_id LIMIT $2),
  claimed AS (
    UPDATE job_rows r SET state = 'running', attempt = r.attempt + 1, lease_until = $3
      FROM picked p WHERE r.job_id = p.job_id AND r.row = p.row
    RETURNING r.job_id, r.row, r.attempt, r.input),
  started AS (
    UPDATE jobs SET started = TRUE, status = CASE WHEN status = 'queued' THEN 'running' ELSE status END
     WHERE id IN (SELECT job_id FROM claimed) AND NOT started)
  SELECT p.team_id, c.job_id, c.row, c.attempt, c.input FROM claimed c JOIN picked p ON p.job_id = c.job_id AND p.row = c.row
   ORDER BY p.turn, p.pos, p.team_id`;

/**
 * A row's outcome, the job's counts, its status (and, when this row ends the job, its finish
 * time and its webhook made due), and a failed row's unit given back: one statement, so one
 * round trip and its own transaction. The job's row is locked by its UPDATE after the row's; a
 * job's rows finished at once on several nodes are counted one at a time, each UPDATE of the job
 * waiting for the one before and then computing its counts and status from the row as that one
 * left it (READ COMMITTED re-reads a row updated meanwhile), so the row that ends the job is the
 * one whose statement sets its final status. No deadlock with cancelJob, which locks the job
 * first: it only changes rows still queued, never the running row locked here; the usage row
 * comes last in both. A rendered row of a counted job (not a test key's) adds one to its
 * team's day on the dashboard's chart (usage_daily; the day of $7, the ISO time it finished).
 * $1-$7: the row's state, name, token, expires_at, error, error_code, finished_at; $8-$10: the
 * claim (job, row, attempt); $11, $12: 1 for done, 1 for failed.
 */
const FINAL = `done + $11 + failed + $12 + cancelled >= total`;
const WEBHOOK_DUE = `${FINAL} AND webhook_state = 'none' AND spec::jsonb ? 'webhookUrl'`;
const FINISH_ROW_SQL = `WITH finished AS (
    UPDATE job_rows SET state = $1, name = $2, token = $3, expires_at = $4, error = $5, error_code = $6, finished_at = $7, lease_until = NULL
     WHERE job_id = $8 AND row = $9 AND attempt = $10 AND state = 'running' RETURNING job_id),
  counted AS (
    UPDATE jobs SET done = done + $11, failed = failed + $12,
           status = ${statusSql({ total: 'total', done: 'done + $11', failed: 'failed + $12', cancelled: 'cancelled' }, 'cancel_requested', 'started')},
           finished_at = CASE WHEN ${FINAL} THEN $7 ELSE finished_at END,
           spec = CASE WHEN ${FINAL} THEN ${SPEC_WITHOUT_SECRETS_SQL.postgres} ELSE spec END,
           webhook_state = CASE WHEN ${WEBHOOK_DUE} THEN 'pending' ELSE webhook_state END,
           webhook_next_at = CASE WHEN ${WEBHOOK_DUE} THEN $7 ELSE webhook_next_at END
     WHERE id = (SELECT job_id FROM finished)
     RETURNING ${JOB_COLUMNS}, month),
  day_counted AS (
    ${countDaySql(`SELECT team_id, left($7, 10), 1 FROM counted WHERE $11 = 1 AND (spec::jsonb -> 'test') IS DISTINCT FROM 'true'::jsonb`)}),
  given_back AS (
    ${giveBackUnitsSql(
      { units: '1', teamId: `(SELECT team_id FROM counted WHERE $12 = 1 AND (spec::jsonb -> 'test') IS DISTINCT FROM 'true'::jsonb)`, month: '(SELECT month FROM counted)' },
      'GREATEST',
    )})
  SELECT ${JOB_COLUMNS} FROM counted`;

export function createPgJobStore(ctx: PgContext, teams: PgTeams): JobStore {
  const { pool } = ctx;
  const now = () => toIso(ctx.now());
  const later = (ms: number) => toIso(new Date(ctx.now().getTime() + ms));

  const lockJob = async (db: Queryable, jobId: string) =>
    (await db.query<JobState>(`SELECT ${JOB_COLUMNS}, month, started, cancel_requested FROM jobs WHERE id = $1 FOR UPDATE`, [jobId])).rows[0];

  const giveBack = (db: Queryable, units: number, teamId: number, month: string) =>
    db.query(giveBackUnitsSql({ units: '$1', teamId: '$2', month: '$3' }, 'GREATEST'), [units, teamId, month]);

  /** Sets the status the counts give (the job locked by the caller: cancelJob); answers the job when this finished it. */
  async function settle(db: Queryable, jobId: string): Promise<JobRecord | undefined> {
    const state = (await db.query<JobState>(prepared(`SELECT ${JOB_COLUMNS}, month, started, cancel_requested FROM jobs WHERE id = $1`, [jobId]))).rows[0];
    const status = statusOf(state, state.cancel_requested, state.started);
    if (status === state.status) return undefined;
    const final = status === 'completed' || status === 'failed' || status === 'cancelled';
    const webhookDue = final && state.webhook_state === 'none' && JSON.parse(state.spec).webhookUrl !== undefined;
    const { rows } = await db.query<JobRow>(prepared(
      `UPDATE jobs SET status = $1, finished_at = $2, webhook_state = $3, webhook_next_at = $4,
              spec = CASE WHEN $2::text IS NULL THEN spec ELSE ${SPEC_WITHOUT_SECRETS_SQL.postgres} END WHERE id = $5 RETURNING ${JOB_COLUMNS}`,
      [status, final ? now() : null, webhookDue ? 'pending' : state.webhook_state, webhookDue ? now() : null, jobId]));
    return final ? jobFromRow(rows[0]) : undefined;
  }

  return {
    async createJob(job: NewJob) {
      const at = ctx.now();
      const month = monthOf(at);
      // The job as stored, answered from inside the transaction: nothing awaits between its
      // commit and the caller (the crash-point seam, jobs.ts's afterCommit, comes right after it).
      return transaction(pool, async (db) => {
        // The team's row locked: reservations and other jobs of this team wait for this one.
        const team = await teams.requireTeamById(job.teamId, db, 'FOR NO KEY UPDATE');
        await reclaimExpired(db, at, job.teamId);
        await db.query('INSERT INTO usage (team_id, month, count) VALUES ($1, $2, 0) ON CONFLICT (team_id, month) DO NOTHING', [job.teamId, month]);
        const units = job.rows.length * unitsPerRow(job.spec);
        const taken = units > 0 ? await db.query(takeUnitsSql({ units: '$1', teamId: '$2', month: '$3', limit: '$4' }), [units, job.teamId, month, team.generationLimit]) : undefined;
        if (taken?.rowCount === 0) {
          const used = (await db.query<{ count: number }>('SELECT count FROM usage WHERE team_id = $1 AND month = $2', [job.teamId, month])).rows[0]?.count ?? 0;
          throw jobOverLimit(team, month, used, job.rows.length);
        }
        const { rows: stored } = await db.query<JobRow>(`INSERT INTO jobs (id, team_id, spec, month, status, total, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${JOB_COLUMNS}`, [
          job.id,
          job.teamId,
          storableJson(job.spec),
          month,
          'queued',
          job.rows.length,
          toIso(at),
        ]);
        const numbered = job.rows.map((input, index) => ({ row: index + 1, input: JSON.stringify(input) }));
        for (const part of chunks(numbered, ROWS_PER_INSERT)) {
          await db.query('INSERT INTO job_rows (job_id, row, input) SELECT $1, * FROM unnest($2::int[], $3::text[])', [job.id, part.map((r) => r.row), part.map((r) => r.input)]);
        }
        return jobFromRow(stored[0]);
      });
    },

    async getJob(teamId, jobId) {
      const { rows } = await pool.query<JobRow>(prepared(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND team_id = $2`, [jobId, teamId]));
      return rows[0] && jobFromRow(rows[0]);
    },

    async jobById(jobId) {
      const { rows } = await pool.query<JobRow>(prepared(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [jobId]));
      return rows[0] && jobFromRow(rows[0]);
    },

    async listJobs(teamId, limit, before, testOnly = false) {
      // $2: test jobs only (a test key's listing: spec.test), the cursor among them.
      const mode = `(NOT $2 OR (spec::jsonb -> 'test') = 'true'::jsonb)`;
      if (before === undefined) {
        const { rows } = await pool.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE team_id = $1 AND ${mode} ORDER BY created_at DESC, id DESC LIMIT $3`, [teamId, testOnly, limit]);
        return rows.map(jobFromRow);
      }
      const { rows } = await pool.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs j WHERE team_id = $1 AND ${mode}
            AND (created_at, id) < (SELECT created_at, id FROM jobs WHERE id = $4 AND team_id = $1 AND ${mode})
          ORDER BY created_at DESC, id DESC LIMIT $3`,
        [teamId, testOnly, limit, before],
      );
      return rows.map(jobFromRow);
    },

    async rows(jobId) {
      const { rows } = await pool.query<RowRow>(prepared(`SELECT ${ROW_COLUMNS} FROM job_rows WHERE job_id = $1 ORDER BY row`, [jobId]));
      return rows.map(rowFromRow);
    },

    async claimInTurn(limit, leaseMs, served) {
      const { rows } = await pool.query<{ team_id: number; job_id: string; row: number; attempt: number; input: string }>(
        prepared(CLAIM_IN_TURN_SQL, [now(), limit, later(leaseMs), [...served]]),
      );
      return rows.map((row): TeamClaim => ({ teamId: row.team_id, jobId: row.job_id, row: row.row, attempt: row.attempt, input: JSON.parse(row.input) as RowInput }));
    },

    async finishRow(claimed: ClaimedRow, result: RowResult): Promise<FinishedRow> {
      const { rows } = await pool.query<JobRow>(prepared(
        FINISH_ROW_SQL,
        result.ok
          ? ['done', result.name, result.token, result.expiresAt, null, null, now(), claimed.jobId, claimed.row, claimed.attempt, 1, 0]
          : ['failed', null, null, null, storableText(result.error), result.code, now(), claimed.jobId, claimed.row, claimed.attempt, 0, 1]));
      const job = rows[0];
      if (!job) return { applied: false };
      // A final status is set once: by the statement of the row that ended the job (no row of a finished job is running).
      return { applied: true, finishedJob: FINAL_STATUSES.has(job.status) ? jobFromRow(job) : undefined };
    },

    async renewRow(claimed, leaseMs) {
      const renewed = await pool.query(prepared(`UPDATE job_rows SET lease_until = $4 WHERE job_id = $1 AND row = $2 AND attempt = $3 AND state = 'running'`, [
        claimed.jobId,
        claimed.row,
        claimed.attempt,
        later(leaseMs),
      ]));
      return (renewed.rowCount ?? 0) > 0;
    },

    async releaseRow(claimed, retryAfterMs) {
      // lease_until is the released row's not-before time.
      await pool.query(prepared(`UPDATE job_rows SET state = 'queued', lease_until = $4 WHERE job_id = $1 AND row = $2 AND attempt = $3 AND state = 'running'`, [
        claimed.jobId,
        claimed.row,
        claimed.attempt,
        later(retryAfterMs),
      ]));
    },

    async cancelJob(teamId, jobId) {
      return transaction(pool, async (db) => {
        const state = await lockJob(db, jobId);
        if (!state || state.team_id !== teamId) return undefined;
        const cancelledRows = (await db.query(`UPDATE job_rows SET state = 'cancelled', finished_at = $1 WHERE job_id = $2 AND state = 'queued'`, [now(), jobId])).rowCount ?? 0;
        if (cancelledRows > 0 && unitsPerRow(state.spec) > 0) await giveBack(db, cancelledRows, state.team_id, state.month);
        const final = state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled';
        await db.query('UPDATE jobs SET cancelled = cancelled + $1, cancel_requested = cancel_requested OR $2 WHERE id = $3', [cancelledRows, !final, jobId]);
        const finishedJob = final ? undefined : await settle(db, jobId);
        const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [jobId]);
        return { job: jobFromRow(rows[0]), cancelledRows, finishedJob };
      });
    },

    async queueDepth() {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_rows WHERE state IN ('queued', 'running')`);
      return rows[0].n;
    },

    async claimWebhooks(limit, leaseMs, skipTeams = []) {
      // Each team's earliest due delivery, teams at their limit left out (one team's many never
      // hide another's); then locked, SKIP LOCKED, so two nodes never take the same one, and
      // leased, all in one statement (one round trip).
      const { rows } = await pool.query<{ id: string; team_id: number; webhook_attempts: string; webhook_next_at: string }>(prepared(
        `WITH due AS (
          SELECT id FROM jobs
            WHERE id IN (
                SELECT id FROM (
                  SELECT DISTINCT ON (team_id) id, webhook_next_at FROM jobs
                   WHERE webhook_state = 'pending' AND webhook_next_at <= $1
                     AND (webhook_lease_until IS NULL OR webhook_lease_until <= $1) AND team_id <> ALL($3::int[])
                   ORDER BY team_id, webhook_next_at) AS firsts
                ORDER BY webhook_next_at LIMIT $2)
              AND webhook_state = 'pending' AND (webhook_lease_until IS NULL OR webhook_lease_until <= $1)
            ORDER BY webhook_next_at FOR UPDATE SKIP LOCKED)
         UPDATE jobs j SET webhook_lease_until = $4 FROM due WHERE j.id = due.id
         RETURNING j.id, j.team_id, j.webhook_attempts, j.webhook_next_at`,
        [now(), limit, [...skipTeams], later(leaseMs)]));
      return rows
        // RETURNING keeps no order: earliest due first, as the port says.
        .sort((a, b) => a.webhook_next_at.localeCompare(b.webhook_next_at))
        .map(({ id, team_id, webhook_attempts }) => ({ jobId: id, teamId: team_id, attempt: (JSON.parse(webhook_attempts) as unknown[]).length + 1 }));
    },

    async freezeWebhookEvent(jobId, body) {
      const { rows } = await pool.query<{ webhook_event: string }>(
        // The body written first wins: a second writer's UPDATE finds it set and changes nothing.
        `WITH frozen AS (UPDATE jobs SET webhook_event = $1 WHERE id = $2 AND webhook_event IS NULL RETURNING webhook_event)
         SELECT webhook_event FROM frozen UNION ALL SELECT webhook_event FROM jobs WHERE id = $2 AND webhook_event IS NOT NULL`,
        [body, jobId],
      );
      if (rows[0]) return rows[0].webhook_event;
      // Another writer froze it while this statement ran (its snapshot saw none): read it now.
      const stored = await pool.query<{ webhook_event: string | null }>('SELECT webhook_event FROM jobs WHERE id = $1', [jobId]);
      return stored.rows[0]?.webhook_event ?? body;
    },

    async recordWebhookAttempt(jobId, attempt: WebhookAttempt & { ok: boolean }, nextAt) {
      await transaction(pool, async (db) => {
        const state = await lockJob(db, jobId);
        if (!state) return;
        const attempts = JSON.parse(state.webhook_attempts) as WebhookAttempt[];
        const { ok, ...shown } = attempt;
        attempts.push(shown);
        await db.query('UPDATE jobs SET webhook_attempts = $1, webhook_state = $2, webhook_next_at = $3, webhook_lease_until = NULL WHERE id = $4', [
          JSON.stringify(attempts),
          ok ? 'delivered' : nextAt ? 'pending' : 'gave-up',
          ok ? null : (nextAt ?? null),
          jobId,
        ]);
      });
    },
  };
}
