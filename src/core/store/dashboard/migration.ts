/** The dashboard's tables (store.ts); one step appended to both SQLite's and PostgreSQL's migration lists. */
export const DASHBOARD_MIGRATION = {
  description: "the dashboard: sign-in sessions, `imprint login --web` codes, test keys, keys' last use, documents per day",
  sql: `
    CREATE TABLE dashboard_sessions (
      token_hash TEXT PRIMARY KEY,
      team_id INTEGER NOT NULL REFERENCES teams(id),
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      csrf TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_seen_at TEXT NOT NULL
    );
    CREATE TABLE login_codes (
      code TEXT PRIMARY KEY,
      poll_hash TEXT NOT NULL UNIQUE,
      machine TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      approved_team_id INTEGER REFERENCES teams(id),
      approved_at TEXT,
      claimed_at TEXT
    );
    CREATE TABLE usage_daily (
      team_id INTEGER NOT NULL REFERENCES teams(id),
      day TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (team_id, day)
    );
    ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
    ALTER TABLE api_keys ADD COLUMN test INTEGER NOT NULL DEFAULT 0;
  `,
};

/**
 * Issue 41: a login code approved in a test key's session gives a test key. Appended to both
 * lists (the last step of each); codes approved before it gave live keys, as they did.
 */
export const LOGIN_CODE_TEST_MIGRATION = {
  description: 'login codes: whether the session that approved a code was a test key\'s (its key is then a test key)',
  sql: `
    ALTER TABLE login_codes ADD COLUMN approved_test INTEGER NOT NULL DEFAULT 0;
  `,
};
