/**
 * Issued files in PostgreSQL: the PDF stays in the data folder (files/), the record (the
 * token's hash, never the token) is here, as in the SQLite store (../issued-files.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ImprintError } from '../../errors.js';
import { writeFileAtomic } from '../atomic-file.js';
import { randomSecret, SECRET_PATTERN, sha256Hex } from '../crypto.js';
import { toIso } from '../time.js';
import type { IssuedFile, OpenedIssuedFile } from '../types.js';
import { reclaimExpired } from './generation-quota.js';
import type { PgContext, PgTeams } from './teams.js';

export function createPgIssuedFiles(ctx: PgContext, teams: PgTeams, folder: string) {
  const { pool } = ctx;
  return {
    async issueFile(teamId: number, pdf: Buffer, ttlMs: number): Promise<IssuedFile> {
      if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
        throw new ImprintError('INVALID_INPUT', `Invalid lifetime ${String(ttlMs)} ms for an issued file: use a positive number of milliseconds.`);
      }
      await teams.requireTeamById(teamId);
      const token = randomSecret();
      const fileName = `${randomBytes(16).toString('hex')}.pdf`;
      const filePath = path.join(folder, fileName);
      // File before row: a row must never point at a file that is not complete.
      writeFileAtomic(filePath, pdf);
      const now = ctx.now();
      const expiresAt = toIso(new Date(now.getTime() + ttlMs));
      try {
        await pool.query('INSERT INTO issued_files (token_hash, team_id, file_name, bytes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
          sha256Hex(token),
          teamId,
          fileName,
          pdf.length,
          toIso(now),
          expiresAt,
        ]);
      } catch (error) {
        // No row: no link will ever name this file (its name is random and this call's own).
        fs.rmSync(filePath, { force: true });
        throw error;
      }
      return { token, expiresAt, path: filePath };
    },

    async openIssuedFile(token: string): Promise<OpenedIssuedFile | undefined> {
      if (typeof token !== 'string' || !SECRET_PATTERN.test(token)) return undefined;
      const { rows } = await pool.query<{ file_name: string; bytes: number; expires_at: string }>(
        'SELECT file_name, bytes, expires_at FROM issued_files WHERE token_hash = $1',
        [sha256Hex(token)],
      );
      const row = rows[0];
      if (!row || row.expires_at <= toIso(ctx.now())) return undefined;
      const filePath = path.join(folder, row.file_name);
      if (!fs.existsSync(filePath)) return undefined;
      return { path: filePath, bytes: row.bytes, expiresAt: row.expires_at };
    },

    /** Also gives back the units of expired reservations: the periodic sweep of the service. */
    async purgeExpiredFiles(): Promise<number> {
      const now = ctx.now();
      // One statement: nodes purging at once each get a disjoint set of rows, so each file
      // is removed once. Rows go first: a crash between the two steps leaves a stray file.
      const { rows } = await pool.query<{ file_name: string }>('DELETE FROM issued_files WHERE expires_at <= $1 RETURNING file_name', [toIso(now)]);
      for (const { file_name } of rows) fs.rmSync(path.join(folder, file_name), { force: true });
      await reclaimExpired(pool, now);
      return rows.length;
    },
  };
}
