/**
 * Template artifacts in the object store, named by the SHA-256 of their bytes. Content
 * addressing makes a write idempotent (two publishes of the same bundle share one object) and
 * lets a read check that the bytes are still the ones that were published.
 */
import { ImprintError } from '../errors.js';
import { sha256Hex, SHA256_PATTERN } from './crypto.js';
import { artifactKey, type ObjectStore } from './objects/types.js';

export function createArtifacts(objects: ObjectStore) {
  /** The artifact as the operator finds it: its file in the data folder, or its key in the bucket. */
  const where = (sha256: string) => objects.localPath?.(artifactKey(sha256)) ?? `${artifactKey(sha256)} in ${objects.location}`;

  return {
    /** Stores the bytes (once) and returns their hash. Call before writing the row that names it. */
    async write(data: Buffer): Promise<string> {
      const sha256 = sha256Hex(data);
      // Objects are stored whole, so an existing one normally holds these bytes; it is still
      // checked, so that publishing again is how a damaged artifact gets repaired.
      const existing = await objects.get(artifactKey(sha256));
      if (!existing || sha256Hex(existing) !== sha256) await objects.put(artifactKey(sha256), data);
      return sha256;
    },

    async read(sha256: string): Promise<Buffer> {
      if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) {
        throw new ImprintError('INVALID_INPUT', `Invalid artifact hash "${sha256}": expected 64 lowercase hex digits.`);
      }
      const data = await objects.get(artifactKey(sha256));
      if (!data) {
        throw new ImprintError('INTERNAL', `The template artifact ${where(sha256)} is missing. Publish the template again to restore it.`);
      }
      if (sha256Hex(data) !== sha256) {
        throw new ImprintError(
          'INTERNAL',
          `The template artifact ${where(sha256)} is damaged (its bytes no longer match their hash). Publish the template again to restore it.`,
        );
      }
      return data;
    },
  };
}

export type Artifacts = ReturnType<typeof createArtifacts>;
