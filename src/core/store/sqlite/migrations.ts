/**
 * The schema, as an ordered list of steps. `PRAGMA user_version` records how many have run,
 * so a data folder written by an older Imprint is upgraded in place on open. Never edit or
 * reorder a released step: append a new one.
 */
import { DASHBOARD_MIGRATION, LOGIN_CODE_TEST_MIGRATION } from '../dashboard/migration.js';
import { SIGN_IN_ATTEMPTS_MIGRATION } from '../dashboard/sign-in-attempts.js';
import { JOB_WEBHOOK_EVENT_MIGRATION, jobTablesMigration, WEBHOOK_SECRETS_MIGRATION } from '../job-tables-migration.js';
import type { Migration } from '../migration.js';
import { SIGNING_KEYS_MIGRATION } from '../signing-keys-migration.js';
import { firstStepMigration, SQLITE_FIRST_STEP } from '../first-step-migration.js';

export const MIGRATIONS: readonly Migration[] = [
  firstStepMigration(SQLITE_FIRST_STEP),
  {
    description: 'who published each template version (the API key id), and which version a rollback republished',
    sql: `
      ALTER TABLE template_versions ADD COLUMN published_by TEXT;
      ALTER TABLE template_versions ADD COLUMN rollback_of INTEGER;
    `,
  },
  WEBHOOK_SECRETS_MIGRATION,
  jobTablesMigration('INTEGER NOT NULL DEFAULT 0'),
  JOB_WEBHOOK_EVENT_MIGRATION,
  DASHBOARD_MIGRATION,
  SIGN_IN_ATTEMPTS_MIGRATION,
  LOGIN_CODE_TEST_MIGRATION,
  SIGNING_KEYS_MIGRATION,
];
