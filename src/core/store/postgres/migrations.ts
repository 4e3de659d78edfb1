/**
 * The PostgreSQL schema, as an ordered list of steps (never edit or reorder a released step:
 * append one). The same tables as the SQLite store's, plus the leases of generation
 * reservations. Times are ISO 8601 text in UTC, as in SQLite: written from the store's clock,
 * they sort and compare as text. Nodes that start together migrate one at a time: each takes
 * a session advisory lock first, then reads how far the schema is.
 */
import { DASHBOARD_MIGRATION, LOGIN_CODE_TEST_MIGRATION } from '../dashboard/migration.js';
import { SIGN_IN_ATTEMPTS_MIGRATION } from '../dashboard/sign-in-attempts.js';
import { JOB_WEBHOOK_EVENT_MIGRATION, jobTablesMigration, WEBHOOK_SECRETS_MIGRATION } from '../job-tables-migration.js';
import type { Migration } from '../migration.js';
import { SIGNING_KEYS_MIGRATION } from '../signing-keys-migration.js';
import { firstStepMigration, POSTGRES_FIRST_STEP } from '../first-step-migration.js';
import { ImprintError } from '../../errors.js';
import { describeDatabase, holdConnection, type Pool } from './connect.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  firstStepMigration(POSTGRES_FIRST_STEP),
  WEBHOOK_SECRETS_MIGRATION,
  jobTablesMigration('BOOLEAN NOT NULL DEFAULT FALSE'),
  JOB_WEBHOOK_EVENT_MIGRATION,
  DASHBOARD_MIGRATION,
  SIGN_IN_ATTEMPTS_MIGRATION,
  {
    // A claim reads a job's rows in order up to the first it may take: without this, through
    // every row the job has finished, so a long job's claims grew with its length
    // (bench/README.md, the job row's fourth round).
    description: "jobs: each job's rows still to do, in order (the claim's index)",
    sql: `CREATE INDEX job_rows_open ON job_rows(job_id, row) WHERE state IN ('queued', 'running');`,
  },
  LOGIN_CODE_TEST_MIGRATION,
  SIGNING_KEYS_MIGRATION,
];

/** Any fixed number: every Imprint node asks for the same lock. ("impr" in ASCII.) */
const MIGRATION_LOCK = 0x696d7072;

export async function migrate(pool: Pool, url: string, migrations = POSTGRES_MIGRATIONS): Promise<void> {
  const held = await holdConnection(pool);
  const { client } = held;
  let broken: Error | undefined;
  try {
    // A session lock, held across the steps' own transactions and given back below (or when
    // the connection drops, should this node die mid-way).
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS imprint_schema (version INTEGER NOT NULL)');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM imprint_schema');
      const from = rows[0]?.version ?? 0;
      if (from > migrations.length) {
        throw new ImprintError(
          'INTERNAL',
          `The PostgreSQL database ${describeDatabase(url)} has Imprint schema version ${from}, newer than this Imprint understands (${migrations.length}). Upgrade Imprint on this node, or point it at another database.`,
        );
      }
      for (const [index, migration] of migrations.entries()) {
        if (index < from) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('DELETE FROM imprint_schema');
          await client.query('INSERT INTO imprint_schema (version) VALUES ($1)', [index + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection that failed mid-migration is closed, so its lock cannot outlive this call.
    held.release(broken);
  }
}
