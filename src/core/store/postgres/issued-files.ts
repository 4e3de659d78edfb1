/**
 * Issued files in PostgreSQL: the PDF is in the object store (the data folder's files/, or
 * S3), the record (the token's hash, never the token) is here, as in the SQLite store
 * (../sqlite/issued-files.ts).
 */
import { pdfByteLength, type PdfBytes } from '../../spool/spooled-pdf.js';
import { ImprintError } from '../../errors.js';
import { createIssuedFileObjects } from '../issued-file-objects.js';
import type { ObjectStore } from '../objects/types.js';
import { randomSecret, SECRET_PATTERN, sha256Hex } from '../crypto.js';
import { toIso } from '../time.js';
import type { IssuedFile, OpenedIssuedFile } from '../types.js';
import { prepared } from './connect.js';
import { reclaimExpired } from './generation-quota.js';
import type { PgContext } from './teams.js';

/** PostgreSQL's code for a row that names a team (or other parent) that does not exist. */
const FOREIGN_KEY_VIOLATION = '23503';

export function createPgIssuedFiles(ctx: PgContext, objects: ObjectStore) {
  const { pool } = ctx;
  const files = createIssuedFileObjects(objects);
  return {
    async issueFile(teamId: number, pdf: PdfBytes, ttlMs: number): Promise<IssuedFile> {
      if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
        throw new ImprintError('INVALID_INPUT', `Invalid lifetime ${String(ttlMs)} ms for an issued file: use a positive number of milliseconds.`);
      }
      // The team is checked by the record's foreign key, not by a read before it: one round
      // trip less for every issued file (each job row has one).
      const token = randomSecret();
      // File before row: a row must never point at a file that is not complete.
      const fileName = await files.write(pdf);
      const now = ctx.now();
      const expiresAt = toIso(new Date(now.getTime() + ttlMs));
      try {
        await pool.query(
          prepared('INSERT INTO issued_files (token_hash, team_id, file_name, bytes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
            sha256Hex(token),
            teamId,
            fileName,
            pdfByteLength(pdf),
            toIso(now),
            expiresAt,
          ]),
        );
      } catch (error) {
        // No row: no link will ever name this file (its name is random and this call's own).
        const failure = (error as { code?: string }).code === FOREIGN_KEY_VIOLATION ? new ImprintError('NOT_FOUND', `No team with id ${teamId}. Create the team first.`, { cause: error }) : error;
        throw await files.removeAfterFailure(fileName, failure);
      }
      return files.issued(token, expiresAt, fileName);
    },

    async openIssuedFile(token: string): Promise<OpenedIssuedFile | undefined> {
      if (typeof token !== 'string' || !SECRET_PATTERN.test(token)) return undefined;
      const { rows } = await pool.query<{ file_name: string; bytes: number; expires_at: string }>(
        'SELECT file_name, bytes, expires_at FROM issued_files WHERE token_hash = $1',
        [sha256Hex(token)],
      );
      const row = rows[0];
      if (!row || row.expires_at <= toIso(ctx.now())) return undefined;
      return files.opened(row.file_name, row.bytes, row.expires_at);
    },

    /** Also gives back the units of expired reservations: the periodic sweep of the service. */
    async purgeExpiredFiles(): Promise<number> {
      const now = ctx.now();
      // One statement: nodes purging at once each get a disjoint set of rows, so each file
      // is removed once. Rows go first: a crash between the two steps, or a storage that is
      // unreachable at that moment, leaves a stray object, never a row whose link would fail.
      const { rows } = await pool.query<{ file_name: string }>('DELETE FROM issued_files WHERE expires_at <= $1 RETURNING file_name', [toIso(now)]);
      try {
        await files.remove(rows.map((row) => row.file_name));
      } finally {
        await reclaimExpired(pool, now);
      }
      return rows.length;
    },
  };
}
