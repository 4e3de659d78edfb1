/**
 * A time-stamp authority on loopback for B-T tests: a real HTTP server on 127.0.0.1 port 0 that
 * answers each RFC 3161 query with `openssl ts -reply` under the test PKI's TSA (signing-pki.ts).
 * `requests` counts what it answered, so a test can tell the token came from here.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { SigningPki } from './signing-pki.js';

export interface TsaServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

export async function startTsa(pki: SigningPki): Promise<TsaServer> {
  let count = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = `${process.pid}-${++count}`;
      const query = path.join(pki.dir, `query-${id}.tsq`);
      const reply = path.join(pki.dir, `reply-${id}.tsr`);
      fs.writeFileSync(query, Buffer.concat(chunks));
      execFile('openssl', ['ts', '-reply', '-config', pki.tsaConfig, '-queryfile', query, '-out', reply], { timeout: 30_000 }, (error, _stdout, stderr) => {
        if (error) {
          response.writeHead(500, { 'content-type': 'text/plain' }).end(`openssl ts -reply failed: ${stderr}`);
          return;
        }
        state.requests++;
        response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(fs.readFileSync(reply));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const state: TsaServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`,
    requests: 0,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
  return state;
}
