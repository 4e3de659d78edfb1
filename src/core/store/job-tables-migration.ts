/**
 * The jobs' tables (api.md Part D) and the webhook secrets, three steps appended to both SQLite's and PostgreSQL's
 * migration lists, as DASHBOARD_MIGRATION is. The one difference between the dialects is a
 * flag's type: PostgreSQL's BOOLEAN, SQLite's 0 and 1. Released steps: never edit, append.
 */
import type { Migration } from './migration.js';

/** Each team's webhook signing secret: the jobs' webhooks sign with it. */
export const WEBHOOK_SECRETS_MIGRATION: Migration = {
  description: "each team's webhook signing secret (kept as it is: it signs, so it must be read back)",
  sql: `
    CREATE TABLE webhook_secrets (
      team_id INTEGER PRIMARY KEY REFERENCES teams(id),
      secret TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
  `,
};

/** `flag`: a false-by-default flag's column type, "BOOLEAN NOT NULL DEFAULT FALSE" (PostgreSQL) or "INTEGER NOT NULL DEFAULT 0" (SQLite). */
export function jobTablesMigration(flag: string): Migration {
  return {
    description: 'jobs (api.md Part D): each job with its counts and webhook deliveries, each row with its claim and outcome',
    sql: `
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams(id),
        spec TEXT NOT NULL,
        month TEXT NOT NULL,
        status TEXT NOT NULL,
        total INTEGER NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        cancelled INTEGER NOT NULL DEFAULT 0,
        started ${flag},
        cancel_requested ${flag},
        created_at TEXT NOT NULL,
        finished_at TEXT,
        webhook_state TEXT NOT NULL DEFAULT 'none',
        webhook_next_at TEXT,
        webhook_lease_until TEXT,
        webhook_attempts TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX jobs_team ON jobs(team_id, created_at, id);
      CREATE INDEX jobs_webhook_due ON jobs(webhook_state, webhook_next_at);

      CREATE TABLE job_rows (
        job_id TEXT NOT NULL REFERENCES jobs(id),
        row INTEGER NOT NULL,
        input TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued',
        attempt INTEGER NOT NULL DEFAULT 0,
        lease_until TEXT,
        name TEXT,
        token TEXT,
        expires_at TEXT,
        error TEXT,
        error_code TEXT,
        finished_at TEXT,
        PRIMARY KEY (job_id, row)
      );
      CREATE INDEX job_rows_claim ON job_rows(state, lease_until);
    `,
  };
}

export const JOB_WEBHOOK_EVENT_MIGRATION: Migration = {
  description: "jobs: the frozen body of a job's webhook event; unfinished jobs by team (rows are taken from teams in turn)",
  sql: `
      ALTER TABLE jobs ADD COLUMN webhook_event TEXT;
      CREATE INDEX jobs_unfinished ON jobs(status, team_id);
    `,
};
