/**
 * A throwaway S3-compatible server for tests: s3rver (npm) on 127.0.0.1, port 0, keeping its
 * buckets in a temporary folder, with one bucket made at start. It can be stopped and started
 * again on the same port and folder (a storage outage and its end), and is removed by remove().
 * Every wait is on an event (the listening socket, the server's close), never a sleep.
 * s3rver checks request signatures against its one account, S3RVER / S3RVER.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3ObjectsOptions } from '../../src/core/store/objects/open-objects.js';

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Server {
  /** http://127.0.0.1:<port>, the same across stop() and start(). */
  endpoint: string;
  bucket: string;
  /** The variables `imprint serve --storage` reads to reach it (the AWS SDK's usual ones). */
  env: Record<string, string>;
  /** The adapter's options for this bucket, for a store opened in the test's own process. */
  options(prefix?: string): S3ObjectsOptions;
  /** The keys in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** Stops answering (connections in progress are cut): the storage is unreachable. */
  stop(): Promise<void>;
  /** Answers again, on the same port and with the same objects. */
  start(): Promise<void>;
  /** Stops it, if running, and removes its folder. */
  remove(): Promise<void>;
}

export async function startS3(bucket = 'imprint-test'): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-s3-'));
  let port = 0;
  let running: S3rver | undefined;

  async function start(): Promise<void> {
    // The bucket is made on the first start; later starts find it in the folder.
    const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: port === 0 ? [{ name: bucket }] : [] });
    const address = await server.run();
    port = address.port;
    running = server;
  }

  async function stop(): Promise<void> {
    const server = running;
    if (!server) return;
    running = undefined;
    const http = (server as unknown as { httpServer: Server }).httpServer;
    const closed = server.close();
    // close() waits for every open connection: the SDK keeps some alive between requests.
    http.closeAllConnections();
    await closed;
  }

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });

  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    options: (prefix = '') => ({ bucket, prefix, endpoint, region: 'us-east-1', credentials: { ...S3RVER_CREDENTIALS } }),
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    stop,
    start: async () => {
      if (!running) await start();
    },
    async remove() {
      await stop();
      client.destroy();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
