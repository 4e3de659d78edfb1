/**
 * Each team's signing key (`imprint team signing-key`), the same table in SQLite and PostgreSQL.
 * `sealed` is the key and certificates encrypted with the server's secret (pdf/sign/sealed-key.ts):
 * the database, its backups and its dumps hold no usable key. Subject and expiry are the
 * certificate's public facts, kept beside it so they can be shown without the secret.
 */
import type { Migration } from './migration.js';

export const SIGNING_KEYS_MIGRATION: Migration = {
  description: "each team's document signing key, sealed with the server's secret (AES-256-GCM)",
  sql: `
    CREATE TABLE signing_keys (
      team_id INTEGER PRIMARY KEY REFERENCES teams(id),
      sealed TEXT NOT NULL,
      subject TEXT NOT NULL,
      not_after TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
  `,
};

/** What the store keeps of a team's signing key: never the key in clear. */
export interface StoredSigningKey {
  /** The sealed key (sealed-key.ts), base64. */
  sealed: string;
  /** The certificate's subject, e.g. "CN=ACME Invoicing, O=ACME". */
  subject: string;
  /** When the certificate expires (ISO 8601). */
  notAfter: string;
  createdAt: string;
}
