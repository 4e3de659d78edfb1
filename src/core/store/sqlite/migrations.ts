/**
 * The schema, as an ordered list of steps. `PRAGMA user_version` records how many have run,
 * so a data folder written by an older Imprint is upgraded in place on open. Never edit or
 * reorder a released step: append a new one.
 */
import { DASHBOARD_MIGRATION } from '../dashboard/migration.js';
import { SIGN_IN_ATTEMPTS_MIGRATION } from '../dashboard/sign-in-attempts.js';
export interface Migration {
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    description: 'teams, api keys, templates and versions, usage, issued files',
    sql: `
      CREATE TABLE teams (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        generation_limit INTEGER NOT NULL DEFAULT 1000 CHECK (generation_limit >= 0),
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams(id),
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_team ON api_keys(team_id);

      CREATE TABLE templates (
        uuid TEXT PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams(id),
        template_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        deleted_at TEXT,
        UNIQUE (team_id, template_id)
      );

      CREATE TABLE template_versions (
        template_uuid TEXT NOT NULL REFERENCES templates(uuid),
        version INTEGER NOT NULL CHECK (version >= 1),
        artifact_sha256 TEXT NOT NULL,
        artifact_bytes INTEGER NOT NULL,
        props_schema TEXT,
        source_name TEXT,
        published_at TEXT NOT NULL,
        PRIMARY KEY (template_uuid, version)
      );

      CREATE TABLE usage (
        team_id INTEGER NOT NULL REFERENCES teams(id),
        month TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
        PRIMARY KEY (team_id, month)
      );

      CREATE TABLE issued_files (
        token_hash TEXT PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams(id),
        file_name TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX issued_files_expiry ON issued_files(expires_at);
    `,
  },
  {
    description: 'who published each template version (the API key id), and which version a rollback republished',
    sql: `
      ALTER TABLE template_versions ADD COLUMN published_by TEXT;
      ALTER TABLE template_versions ADD COLUMN rollback_of INTEGER;
    `,
  },
  {
    description: "each team's webhook signing secret (kept as it is: it signs, so it must be read back)",
    sql: `
      CREATE TABLE webhook_secrets (
        team_id INTEGER PRIMARY KEY REFERENCES teams(id),
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
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
        started INTEGER NOT NULL DEFAULT 0,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
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
  },
  {
    description: 'jobs: the frozen body of a job\'s webhook event; unfinished jobs by team (rows are taken from teams in turn)',
    sql: `
      ALTER TABLE jobs ADD COLUMN webhook_event TEXT;
      CREATE INDEX jobs_unfinished ON jobs(status, team_id);
    `,
  },
  DASHBOARD_MIGRATION,
  SIGN_IN_ATTEMPTS_MIGRATION,
];
