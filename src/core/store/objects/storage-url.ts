/**
 * `--storage s3://bucket/prefix`: where a service keeps template artifacts and issued PDFs
 * when its nodes share them. Checked before anything opens, so a typo stops the service at
 * start with what to write instead.
 */
import { ImprintError } from '../../errors.js';

export interface StorageLocation {
  bucket: string;
  /** Without leading or trailing slashes; empty: the bucket's root. */
  prefix: string;
}

const EXAMPLE = 's3://imprint-objects or s3://imprint-objects/production';
/** S3's bucket naming rules (lowercase letters, digits, dots and hyphens; 3 to 63; a letter or digit at each end). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function parseStorageUrl(text: string): StorageLocation {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/i.exec(text.trim());
  if (!match) {
    throw new ImprintError('USAGE', `"${text}" is not an S3 location: use s3://bucket or s3://bucket/prefix, e.g. ${EXAMPLE}.`);
  }
  const bucket = match[1]!;
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ImprintError('USAGE', `"${bucket}" is not a valid S3 bucket name: use s3://bucket or s3://bucket/prefix with a bucket of 3 to 63 lowercase letters, digits, dots and hyphens, e.g. ${EXAMPLE}.`);
  }
  const prefix = (match[2] ?? '').split('/').filter(Boolean).join('/');
  return { bucket, prefix };
}

/** The bucket and where it is, for messages and logs (no credentials are part of it). */
export const describeBucket = (options: StorageLocation & { endpoint?: string }) =>
  `S3 bucket "${options.bucket}"${options.prefix ? ` prefix "${options.prefix}/"` : ''} at ${options.endpoint ?? 'AWS'}`;
