/**
 * Objects as files in the data folder: the default, and what embedded mode always uses. The
 * layout is the data folder's of old (artifacts/<sha256>, files/<name>.pdf), so an existing
 * folder keeps working. Files are renamed into place whole, fsynced with their folder (core/atomic-file.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ImprintError } from '../../errors.js';
import { pipeline } from 'node:stream/promises';
import { streamFileAtomically, writeFileAtomic } from '../../atomic-file.js';
import { secureDataFolder } from '../data-folder.js';
import { translateStorageFull } from '../storage-full.js';
import { ARTIFACTS_PREFIX, FILES_PREFIX, type ObjectStore } from './types.js';
import { storageUnavailable } from './unavailable.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function createFileObjects(root: string): ObjectStore {
  secureDataFolder(root, [ARTIFACTS_PREFIX, FILES_PREFIX]);
  const pathOf = (key: string) => path.join(root, ...key.split('/'));
  const location = `the data folder ${root}`;

  return {
    location,
    async put(key, data) {
      const file = pathOf(key);
      try {
        // Private, as the folder is; durable, since a database row points at it once written.
        const options = { durable: true, mode: 0o600 };
        if (Buffer.isBuffer(data)) await writeFileAtomic(file, data, options);
        else await streamFileAtomically(file, (into) => pipeline(data.stream(), into, { end: false }), options);
      } catch (error) {
        throw translateStorageFull(error, path.basename(file), path.dirname(file));
      }
    },
    async get(key) {
      try {
        return fs.readFileSync(pathOf(key));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async size(key) {
      return fs.statSync(pathOf(key), { throwIfNoEntry: false })?.size;
    },
    async stream(key): Promise<Readable> {
      // Opened here, so a file that is gone fails now rather than in the middle of an answer.
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(pathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) throw new ImprintError('NOT_FOUND', 'The file is no longer in storage.', { cause: error });
        throw error;
      }
      return handle.createReadStream();
    },
    async delete(key) {
      fs.rmSync(pathOf(key), { force: true });
    },
    async check() {
      try {
        fs.statSync(root);
      } catch (error) {
        throw storageUnavailable(location, 'be read', error);
      }
    },
    localPath: pathOf,
    async close() {},
  };
}
