/**
 * The PDFs of issued files in the object store, the same for both store adapters: each under
 * a random name unrelated to its token (so listing the folder or bucket gives nothing that
 * opens a download), written before the record that names it and removed after it.
 */
import { randomBytes } from 'node:crypto';
import { issuedFileKey, type ObjectStore } from './objects/types.js';
import type { IssuedFile, OpenedIssuedFile } from './types.js';
import type { PdfBytes } from '../spool/spooled-pdf.js';

export function createIssuedFileObjects(objects: ObjectStore) {
  const localPath = (fileName: string) => (objects.localPath ? { path: objects.localPath(issuedFileKey(fileName)) } : {});

  return {
    /** Stores the PDF whole under a new name, and answers the name. */
    async write(pdf: PdfBytes): Promise<string> {
      const fileName = `${randomBytes(16).toString('hex')}.pdf`;
      await objects.put(issuedFileKey(fileName), pdf);
      return fileName;
    },

    async remove(fileNames: readonly string[]): Promise<void> {
      // Every one is tried: one that fails (the storage went away) does not keep the others.
      const failed = (await Promise.allSettled(fileNames.map((name) => objects.delete(issuedFileKey(name))))).find((result) => result.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },

    /**
     * Removes the PDF of a record that could not be written, and answers that failure to
     * throw; when the removal fails too (the storage went away), it travels with it as
     * `cleanupError`, for the log: the object is then a stray that no link names.
     */
    async removeAfterFailure(fileName: string, failure: unknown): Promise<unknown> {
      try {
        await objects.delete(issuedFileKey(fileName));
      } catch (cleanupError) {
        if (failure instanceof Error) Object.assign(failure, { cleanupError });
      }
      return failure;
    },

    issued(token: string, expiresAt: string, fileName: string): IssuedFile {
      return { token, expiresAt, ...localPath(fileName) };
    },

    /** The file a live record names, or undefined when its object is gone. */
    async opened(fileName: string, bytes: number, expiresAt: string): Promise<OpenedIssuedFile | undefined> {
      const key = issuedFileKey(fileName);
      if ((await objects.size(key)) === undefined) return undefined;
      return { bytes, expiresAt, ...localPath(fileName), open: () => objects.stream(key) };
    },
  };
}
