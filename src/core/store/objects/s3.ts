/**
 * Objects in an S3 bucket (AWS, or any S3-compatible server: MinIO, Ceph, s3rver), so that
 * every node of a service reads what any node wrote. Keys live under the operator's prefix:
 * s3://bucket/prefix keeps artifacts at prefix/artifacts/<sha256>. Credentials come from the
 * SDK's usual chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance
 * role); a non-AWS endpoint is addressed path-style (http://host/bucket/key), as those servers
 * expect. A PUT is atomic in S3: a reader sees the old object or the whole new one.
 *
 * Any failure to talk to the bucket, other than "no such object", is STORAGE_UNAVAILABLE
 * (503): the request failed for the storage's sake, and the same request works once the
 * storage is back, without restarting anything (the client reconnects per request).
 */
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { ImprintError } from '../../errors.js';
import { describeBucket, type StorageLocation } from './storage-url.js';
import type { ObjectStore } from './types.js';
import { storageUnavailable } from './unavailable.js';

/** The bucket and prefix of --storage, and how to reach them. */
export interface S3ObjectsOptions extends StorageLocation {  /** A non-AWS server (http://127.0.0.1:9000); absent: AWS, found by region. */
  endpoint?: string;
  /** Absent: the SDK's own (AWS_REGION, a profile); us-east-1 for a non-AWS endpoint, where it only signs. */
  region?: string;
  /** Absent: the SDK's credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Bounds on one request to the bucket, so a storage that hangs fails a request rather than holding it. */
const CONNECTION_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

const isNotFound = (error: unknown) => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return $metadata?.httpStatusCode === 404 || name === 'NoSuchKey' || name === 'NotFound';
};

export function createS3Objects(options: S3ObjectsOptions): ObjectStore {
  const { bucket } = options;
  const client = new S3Client({
    endpoint: options.endpoint,
    forcePathStyle: options.endpoint !== undefined,
    region: options.region ?? (options.endpoint ? 'us-east-1' : undefined),
    credentials: options.credentials,
    // The SDK's default checksums (CRC32 headers or trailers on every PUT) are refused by some
    // S3-compatible servers; on those only what an operation requires is sent. Artifacts are
    // checked against their SHA-256 on every read anyway.
    ...(options.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  const location = describeBucket(options);
  const keyOf = (key: string) => (options.prefix ? `${options.prefix}/${key}` : key);

  /** One request to the bucket; what fails is STORAGE_UNAVAILABLE, "no such object" is `ifMissing`. */
  async function call<T>(action: string, send: () => Promise<T>, ifMissing?: () => T): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (ifMissing && isNotFound(error)) return ifMissing();
      throw storageUnavailable(location, action, error);
    }
  }

  return {
    location,
    async put(key, data) {
      // A spooled PDF goes up as a stream of its file, its length told first (a PUT without one is refused).
      const body = Buffer.isBuffer(data) ? { Body: data, ContentLength: data.length } : { Body: data.stream(), ContentLength: data.bytes };
      await call(`store ${key}`, () => client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(key), ...body })));
    },
    async get(key) {
      return call(
        `read ${key}`,
        async () => {
          const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
          return Buffer.from(await answer.Body!.transformToByteArray());
        },
        () => undefined,
      );
    },
    async size(key) {
      return call(
        `find ${key}`,
        async () => (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }))).ContentLength ?? 0,
        () => undefined,
      );
    },
    async stream(key) {
      const body = await call(
        `read ${key}`,
        async () => (await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }))).Body as Readable,
        () => undefined,
      );
      if (!body) throw new ImprintError('NOT_FOUND', 'The file is no longer in storage.');
      return body;
    },
    async delete(key) {
      await call(`remove ${key}`, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) })));
    },
    async check() {
      await call('reach the bucket', async () => {
        try {
          await client.send(new HeadBucketCommand({ Bucket: bucket }));
        } catch (error) {
          // HEAD answers carry no body, so the SDK can only say "NotFound": say which.
          if (isNotFound(error)) throw new Error('the bucket does not exist (create it, or correct --storage)', { cause: error });
          throw error;
        }
      });
    },
    async close() {
      client.destroy();
    },
  };
}
