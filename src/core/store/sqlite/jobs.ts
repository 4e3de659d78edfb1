/**
 * The job store on SQLite (the rules are job-types.ts's). Every change is one BEGIN IMMEDIATE
 * transaction: a row's outcome, its unit given back and the job's counts move together, and
 * a claim (a lease on the row) is taken by one process only. A restart finds unfinished rows
 * in the table; rows a dead process held are claimed again once their lease runs out.
 */
import type { ClaimedRow, DueWebhook, FinishedRow, JobRecord, JobStore, NewJob, RowInput, RowResult, TeamClaim, WebhookAttempt } from '../../jobs/job-types.js';
import type { StoreContext } from './context.js';
import { immediate } from './database.js';
import { giveBackUnitsSql, takeUnitsSql } from '../quota-rule.js';
import { countDaySql } from '../dashboard/usage-daily.js';
import { JOB_COLUMNS, jobFromRow, jobOverLimit, ROW_COLUMNS, rowFromRow, SPEC_WITHOUT_SECRETS_SQL, statusOf, teamsInTurn, unitsPerRow, type JobRow, type RowRow } from '../job-records.js';
import { storableJson, storableText } from '../stored-text.js';
import type { Teams } from './teams.js';
import { dayOf, monthOf, toIso } from '../time.js';

interface JobState extends JobRow {
  month: string;
  started: number;
  cancel_requested: number;
}

export function createJobStore(ctx: StoreContext, teams: Teams): JobStore {
  const { db } = ctx;
  const now = () => toIso(ctx.now());
  const later = (ms: number) => toIso(new Date(ctx.now().getTime() + ms));

  const ensureUsage = db.prepare<[number, string]>('INSERT INTO usage (team_id, month, count) VALUES (?, ?, 0) ON CONFLICT (team_id, month) DO NOTHING');
  const usedOf = db.prepare<[number, string], { count: number }>('SELECT count FROM usage WHERE team_id = ? AND month = ?');
  const takeUnits = db.prepare<[number, number, string, number, number]>(takeUnitsSql({ units: '?', teamId: '?', month: '?', limit: '?' }));
  const giveBack = db.prepare<[number, number, string]>(giveBackUnitsSql({ units: '?', teamId: '?', month: '?' }, 'MAX'));
  const countDay = db.prepare<[number, string, number]>(countDaySql('VALUES (?, ?, ?)'));
  const insertJob = db.prepare<[string, number, string, string, string, number, string]>(
    'INSERT INTO jobs (id, team_id, spec, month, status, total, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertRow = db.prepare<[string, number, string]>('INSERT INTO job_rows (job_id, row, input) VALUES (?, ?, ?)');
  const jobState = db.prepare<[string], JobState>(`SELECT ${JOB_COLUMNS}, month, started, cancel_requested FROM jobs WHERE id = ?`);
  const teamJob = db.prepare<[string, number], JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ? AND team_id = ?`);
  // ?2: 1 for test jobs only (a test key's listing: spec.test, JSON true, which json_extract reads as 1).
  const listFirst = db.prepare<[number, number, number], JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE team_id = ? AND (? = 0 OR json_extract(spec, '$.test') IS 1) ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const listBefore = db.prepare<[number, number, string, string, string, number], JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE team_id = ? AND (? = 0 OR json_extract(spec, '$.test') IS 1) AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const rowsOf = db.prepare<[string], RowRow>(`SELECT ${ROW_COLUMNS} FROM job_rows WHERE job_id = ? ORDER BY row`);
  const claimableOfTeam = db.prepare<[number, string, number], { job_id: string; row: number }>(
    `SELECT r.job_id, r.row FROM job_rows r JOIN jobs j ON j.id = r.job_id
      WHERE j.team_id = ? AND j.status IN ('queued', 'running') AND r.state IN ('queued', 'running') AND (r.lease_until IS NULL OR r.lease_until <= ?)
      ORDER BY j.created_at, j.id, r.row LIMIT ?`,
  );
  const teamsWithWork = db.prepare<[], { team_id: number }>(`SELECT DISTINCT team_id FROM jobs WHERE status IN ('queued', 'running')`);
  const claimOne = db.prepare<[string, string, number, string], { attempt: number; input: string }>(
    `UPDATE job_rows SET state = 'running', attempt = attempt + 1, lease_until = ?
      WHERE job_id = ? AND row = ? AND state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until <= ?)
      RETURNING attempt, input`,
  );
  const markStarted = db.prepare<[string]>(`UPDATE jobs SET started = 1, status = CASE WHEN status = 'queued' THEN 'running' ELSE status END WHERE id = ?`);
  const finish = db.prepare<[string, string | null, string | null, string | null, string | null, string | null, string, string, number, number]>(
    `UPDATE job_rows SET state = ?, name = ?, token = ?, expires_at = ?, error = ?, error_code = ?, finished_at = ?, lease_until = NULL
      WHERE job_id = ? AND row = ? AND attempt = ? AND state = 'running'`,
  );
  const renew = db.prepare<[string, string, number, number]>(
    `UPDATE job_rows SET lease_until = ? WHERE job_id = ? AND row = ? AND attempt = ? AND state = 'running'`,
  );
  // A released row waits until lease_until before it is claimed again (its not-before time).
  const release = db.prepare<[string, string, number, number]>(
    `UPDATE job_rows SET state = 'queued', lease_until = ? WHERE job_id = ? AND row = ? AND attempt = ? AND state = 'running'`,
  );
  const addCounts = db.prepare<[number, number, number, string]>('UPDATE jobs SET done = done + ?, failed = failed + ?, cancelled = cancelled + ? WHERE id = ?');
  // A finished job (finished_at set) loses what no row needs any more (job-records.ts JOB_SECRET_PATHS).
  const setStatus = db.prepare<[string, string | null, string, string | null, string]>(
    `UPDATE jobs SET status = ?1, finished_at = ?2, webhook_state = ?3, webhook_next_at = ?4,
            spec = CASE WHEN ?2 IS NULL THEN spec ELSE ${SPEC_WITHOUT_SECRETS_SQL.sqlite} END WHERE id = ?5`,
  );
  const cancelQueued = db.prepare<[string, string]>(`UPDATE job_rows SET state = 'cancelled', finished_at = ? WHERE job_id = ? AND state = 'queued'`);
  const markCancel = db.prepare<[string]>('UPDATE jobs SET cancel_requested = 1 WHERE id = ?');
  const depth = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM job_rows WHERE state IN ('queued', 'running')`);
  // Each team's earliest due delivery (SQLite gives a MIN's other columns from its row), teams
  // at their limit left out: one team's many deliveries never hide another team's.
  const dueWebhooks = db.prepare<[string, string, string, number], { id: string; team_id: number; webhook_attempts: string }>(
    `SELECT id, team_id, webhook_attempts, MIN(webhook_next_at) AS next_at FROM jobs
      WHERE webhook_state = 'pending' AND webhook_next_at <= ? AND (webhook_lease_until IS NULL OR webhook_lease_until <= ?)
        AND team_id NOT IN (SELECT value FROM json_each(?))
      GROUP BY team_id ORDER BY next_at LIMIT ?`,
  );
  const freezeEvent = db.prepare<[string, string]>('UPDATE jobs SET webhook_event = ? WHERE id = ? AND webhook_event IS NULL');
  const eventOf = db.prepare<[string], { webhook_event: string | null }>('SELECT webhook_event FROM jobs WHERE id = ?');
  const leaseWebhook = db.prepare<[string, string]>('UPDATE jobs SET webhook_lease_until = ? WHERE id = ?');
  const attemptsOf = db.prepare<[string], { webhook_attempts: string }>('SELECT webhook_attempts FROM jobs WHERE id = ?');
  const saveAttempt = db.prepare<[string, string, string | null, string]>(
    'UPDATE jobs SET webhook_attempts = ?, webhook_state = ?, webhook_next_at = ?, webhook_lease_until = NULL WHERE id = ?',
  );

  /** Sets the status the counts give; answers the job when this change finished it. */
  function settle(jobId: string): JobRecord | undefined {
    const state = jobState.get(jobId)!;
    const status = statusOf(state, state.cancel_requested === 1, state.started === 1);
    if (status === state.status) return undefined;
    const final = status === 'completed' || status === 'failed' || status === 'cancelled';
    const webhookDue = final && state.webhook_state === 'none' && JSON.parse(state.spec).webhookUrl !== undefined;
    setStatus.run(status, final ? now() : null, webhookDue ? 'pending' : state.webhook_state, webhookDue ? now() : null, jobId);
    return final ? jobFromRow(jobState.get(jobId)!) : undefined;
  }

  function claim(jobId: string, row: number, leaseMs: number): ClaimedRow | undefined {
    const claimed = claimOne.get(later(leaseMs), jobId, row, now());
    if (!claimed) return undefined;
    markStarted.run(jobId);
    return { jobId, row, attempt: claimed.attempt, input: JSON.parse(claimed.input) as RowInput };
  }

  return {
    async createJob(job: NewJob) {
      const month = monthOf(ctx.now());
      const spec = storableJson(job.spec);
      immediate(db, () => {
        const team = teams.requireTeamById(job.teamId);
        ensureUsage.run(job.teamId, month);
        const units = job.rows.length * unitsPerRow(job.spec);
        if (units > 0 && takeUnits.run(units, job.teamId, month, units, team.generationLimit).changes === 0) {
          throw jobOverLimit(team, month, usedOf.get(job.teamId, month)?.count ?? 0, job.rows.length);
        }
        insertJob.run(job.id, job.teamId, spec, month, 'queued', job.rows.length, now());
        job.rows.forEach((input, index) => insertRow.run(job.id, index + 1, JSON.stringify(input)));
      });
      return jobFromRow(jobState.get(job.id)!);
    },

    async getJob(teamId, jobId) {
      const row = teamJob.get(jobId, teamId);
      return row && jobFromRow(row);
    },

    async jobById(jobId) {
      const row = jobState.get(jobId);
      return row && jobFromRow(row);
    },

    async listJobs(teamId, limit, before, testOnly = false) {
      const only = testOnly ? 1 : 0;
      if (before === undefined) return listFirst.all(teamId, only, limit).map(jobFromRow);
      const cursor = teamJob.get(before, teamId);
      if (!cursor || (testOnly && jobFromRow(cursor).spec.test !== true)) return [];
      return listBefore.all(teamId, only, cursor.created_at, cursor.created_at, cursor.id, limit).map(jobFromRow);
    },

    async rows(jobId) {
      return rowsOf.all(jobId).map(rowFromRow);
    },

    async claimInTurn(limit, leaseMs, served) {
      // One transaction: a round a team, each team with work one row a round, until `limit`
      // rows are taken or no team has a row to give.
      return immediate(db, () => {
        const claimed: TeamClaim[] = [];
        let open = teamsInTurn(teamsWithWork.all().map((row) => row.team_id), served);
        while (claimed.length < limit && open.length > 0) {
          const stillOpen: number[] = [];
          for (const team of open) {
            if (claimed.length >= limit) break;
            const [next] = claimableOfTeam.all(team, now(), 1);
            const row = next && claim(next.job_id, next.row, leaseMs);
            if (!row) continue;
            claimed.push({ ...row, teamId: team });
            stillOpen.push(team);
          }
          open = stillOpen;
        }
        return claimed;
      });
    },

    async finishRow(claimed: ClaimedRow, result: RowResult): Promise<FinishedRow> {
      return immediate(db, () => {
        const changed = result.ok
          ? finish.run('done', result.name, result.token, result.expiresAt, null, null, now(), claimed.jobId, claimed.row, claimed.attempt)
          : finish.run('failed', null, null, null, storableText(result.error), result.code, now(), claimed.jobId, claimed.row, claimed.attempt);
        if (changed.changes === 0) return { applied: false };
        const state = jobState.get(claimed.jobId)!;
        if (!result.ok && unitsPerRow(state.spec) > 0) giveBack.run(1, state.team_id, state.month);
        // A rendered row of a counted job is a document of today's on the dashboard's chart, counted with its outcome: once.
        if (result.ok && unitsPerRow(state.spec) > 0) countDay.run(state.team_id, dayOf(ctx.now()), 1);
        addCounts.run(result.ok ? 1 : 0, result.ok ? 0 : 1, 0, claimed.jobId);
        return { applied: true, finishedJob: settle(claimed.jobId) };
      });
    },

    async renewRow(claimed, leaseMs) {
      return immediate(db, () => renew.run(later(leaseMs), claimed.jobId, claimed.row, claimed.attempt).changes > 0);
    },

    async releaseRow(claimed, retryAfterMs) {
      immediate(db, () => release.run(later(retryAfterMs), claimed.jobId, claimed.row, claimed.attempt));
    },

    async cancelJob(teamId, jobId) {
      return immediate(db, () => {
        if (!teamJob.get(jobId, teamId)) return undefined;
        const cancelledRows = cancelQueued.run(now(), jobId).changes;
        const state = jobState.get(jobId)!;
        if (cancelledRows > 0 && unitsPerRow(state.spec) > 0) giveBack.run(cancelledRows, state.team_id, state.month);
        addCounts.run(0, 0, cancelledRows, jobId);
        const final = state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled';
        // A finished job stays as it finished: there was nothing left to cancel.
        if (!final) markCancel.run(jobId);
        const finishedJob = final ? undefined : settle(jobId);
        return { job: jobFromRow(jobState.get(jobId)!), cancelledRows, finishedJob };
      });
    },

    async queueDepth() {
      return depth.get()!.n;
    },

    async claimWebhooks(limit, leaseMs, skipTeams = []): Promise<DueWebhook[]> {
      return immediate(db, () =>
        dueWebhooks.all(now(), now(), JSON.stringify(skipTeams), limit).map(({ id, team_id, webhook_attempts }) => {
          leaseWebhook.run(later(leaseMs), id);
          return { jobId: id, teamId: team_id, attempt: (JSON.parse(webhook_attempts) as unknown[]).length + 1 };
        }),
      );
    },

    async freezeWebhookEvent(jobId, body) {
      return immediate(db, () => {
        freezeEvent.run(body, jobId);
        return eventOf.get(jobId)?.webhook_event ?? body;
      });
    },

    async recordWebhookAttempt(jobId, attempt: WebhookAttempt & { ok: boolean }, nextAt) {
      immediate(db, () => {
        const attempts = JSON.parse(attemptsOf.get(jobId)?.webhook_attempts ?? '[]') as WebhookAttempt[];
        const { ok, ...shown } = attempt;
        attempts.push(shown);
        saveAttempt.run(JSON.stringify(attempts), ok ? 'delivered' : nextAt ? 'pending' : 'gave-up', ok ? null : (nextAt ?? null), jobId);
      });
    },
  };
}
