/**
 * PDFs issued for `format: json` results: a capability URL carries a random token, and the
 * store keeps only the token's hash, so the database alone cannot be turned into working
 * download links. Files outlive a restart of the service and are served until they expire.
 */
import { pdfByteLength, type PdfBytes } from '../../spool/spooled-pdf.js';
import { ImprintError } from '../../errors.js';
import type { StoreContext } from './context.js';
import { randomSecret, SECRET_PATTERN, sha256Hex } from '../crypto.js';
import { guardDatabase } from './database.js';
import { createIssuedFileObjects } from '../issued-file-objects.js';
import type { Teams } from './teams.js';
import { toIso } from '../time.js';
import type { IssuedFile, OpenedIssuedFile } from '../types.js';

export function createIssuedFiles(ctx: StoreContext, teams: Teams) {
  const { db } = ctx;
  const files = createIssuedFileObjects(ctx.objects);
  const insert = db.prepare<[string, number, string, number, string, string]>(
    `INSERT INTO issued_files (token_hash, team_id, file_name, bytes, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const byHash = db.prepare<[string], { file_name: string; bytes: number; expires_at: string }>(
    'SELECT file_name, bytes, expires_at FROM issued_files WHERE token_hash = ?',
  );
  // One statement: two processes purging at once each get a disjoint set of rows to clean up.
  const deleteExpired = db.prepare<[string], { file_name: string }>(
    'DELETE FROM issued_files WHERE expires_at <= ? RETURNING file_name',
  );

  return {
    async issueFile(teamId: number, pdf: PdfBytes, ttlMs: number): Promise<IssuedFile> {
      if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
        throw new ImprintError('INVALID_INPUT', `Invalid lifetime ${String(ttlMs)} ms for an issued file: use a positive number of milliseconds.`);
      }
      teams.requireTeamById(teamId);
      const token = randomSecret();
      // File before row: a row must never point at a file that is not complete.
      const fileName = await files.write(pdf);
      const now = ctx.now();
      const expiresAt = toIso(new Date(now.getTime() + ttlMs));
      try {
        guardDatabase(db.name, () => insert.run(sha256Hex(token), teamId, fileName, pdfByteLength(pdf), toIso(now), expiresAt));
      } catch (error) {
        // No row (a full disk, a lock held too long): no link will ever name this file, so it
        // goes. Its name is random and this call's own, so nothing else can be using it.
        throw await files.removeAfterFailure(fileName, error);
      }
      return files.issued(token, expiresAt, fileName);
    },

    async openIssuedFile(token: string): Promise<OpenedIssuedFile | undefined> {
      if (typeof token !== 'string' || !SECRET_PATTERN.test(token)) return undefined;
      const row = byHash.get(sha256Hex(token));
      if (!row || row.expires_at <= toIso(ctx.now())) return undefined;
      return files.opened(row.file_name, row.bytes, row.expires_at);
    },

    async purgeExpiredFiles(): Promise<number> {
      // Rows go first: a crash between the two steps leaves a stray file, never a row whose
      // download link would fail.
      const removed = guardDatabase(db.name, () => deleteExpired.all(toIso(ctx.now())));
      await files.remove(removed.map((row) => row.file_name));
      return removed.length;
    },
  };
}
