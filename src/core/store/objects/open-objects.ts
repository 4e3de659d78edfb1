/**
 * The object store a store is opened with: the S3 bucket the operator named, checked to be
 * reachable before the service starts, else files in the data folder (the default).
 */
import { createFileObjects } from './files.js';
import type { S3ObjectsOptions } from './s3.js';
import type { ObjectStore } from './types.js';
import { isImprintError } from '../../errors.js';
import { storageUnavailableAtStart } from './unavailable.js';

export type { S3ObjectsOptions };

export async function openObjectStore(dataDir: string, s3?: S3ObjectsOptions): Promise<ObjectStore> {
  if (!s3) return createFileObjects(dataDir);
  // The SDK loads only for a bucket: the default, and every CLI command, start without it.
  const objects = (await import('./s3.js')).createS3Objects(s3);
  try {
    await objects.check();
  } catch (error) {
    await objects.close();
    throw isImprintError(error) && error.code === 'STORAGE_UNAVAILABLE' ? storageUnavailableAtStart(error) : error;
  }
  return objects;
}
