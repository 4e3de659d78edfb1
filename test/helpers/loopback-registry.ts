/**
 * An npm registry on 127.0.0.1 (port 0) that publishes packed tarballs of ours under their
 * names and forwards every other request to a real registry (npm's configured one).
 *
 * Why: a project that depends on `"imprint": "^0.1.0"` (what `imprint init` writes) would
 * otherwise install the registry's unrelated package of that name. With
 * `npm install --registry <url>`, npm asks this server for `imprint`'s packument and tarball and
 * gets ours, and everything else (react, typescript...) comes from the real registry through it,
 * exactly as a user's install resolves them. Tarball URLs in forwarded packuments name the real
 * registry; npm's default `replace-registry-host=npmjs` points them back here, and they are
 * forwarded too.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PublishedTarball {
  /** A tarball made by `npm pack`: its package/package.json is the manifest served. */
  tarball: string;
}

export interface LoopbackRegistry {
  url: string;
  /** Every request, "GET /imprint -> ours" or "GET /react -> 200 upstream", for a failing assertion's message. */
  log: string[];
  /** The integrity npm records for each of our tarballs (package-lock.json), by package name. */
  integrity: Record<string, string>;
  close(): Promise<void>;
}

/** Headers that describe the upstream connection or its encoding, not the body we pass on (fetch decodes it). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length']);
const UPSTREAM_MS = 120_000;

interface Ours {
  manifest: Record<string, unknown> & { name: string; version: string };
  bytes: Buffer;
  integrity: string;
  shasum: string;
  tarballPath: string;
}

function readOurs(published: PublishedTarball): Ours {
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', published.tarball, 'package/package.json'], { encoding: 'utf8', timeout: 30_000 }));
  const bytes = fs.readFileSync(published.tarball);
  return {
    manifest,
    bytes,
    integrity: `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`,
    shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
    tarballPath: `/${manifest.name}/-/${manifest.name.replace(/^@[^/]+\//, '')}-${manifest.version}.tgz`,
  };
}

function packument(ours: Ours, url: string): object {
  const { manifest } = ours;
  return {
    name: manifest.name,
    'dist-tags': { latest: manifest.version },
    versions: {
      [manifest.version]: { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist: { tarball: `${url}${ours.tarballPath}`, integrity: ours.integrity, shasum: ours.shasum } },
    },
    time: { [manifest.version]: new Date().toISOString() },
  };
}

async function forward(request: http.IncomingMessage, response: http.ServerResponse, upstream: string, log: string[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const name of ['accept', 'user-agent', 'npm-command', 'content-type']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const target = new URL(request.url!.replace(/^\//, ''), upstream.endsWith('/') ? upstream : `${upstream}/`);
  const answer = await fetch(target, {
    method: request.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    signal: AbortSignal.timeout(UPSTREAM_MS),
  });
  log.push(`${request.method} ${request.url} -> ${answer.status} upstream`);
  const passed: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) passed[name] = value;
  });
  const body = Buffer.from(await answer.arrayBuffer());
  response.writeHead(answer.status, { ...passed, 'content-length': String(body.length) });
  response.end(body);
}

export async function startLoopbackRegistry(options: { upstream: string; publish: PublishedTarball[] }): Promise<LoopbackRegistry> {
  const ours = new Map(options.publish.map((published) => readOurs(published)).map((entry) => [entry.manifest.name, entry]));
  const log: string[] = [];
  let url = '';
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0]);
    const own = ours.get(name);
    const tarball = [...ours.values()].find((entry) => request.url === entry.tarballPath);
    if (own && request.method === 'GET') {
      log.push(`GET ${request.url} -> ours`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(packument(own, url)));
      return;
    }
    if (tarball && request.method === 'GET') {
      log.push(`GET ${request.url} -> ours`);
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(tarball.bytes.length) });
      response.end(tarball.bytes);
      return;
    }
    forward(request, response, options.upstream, log).catch((error: Error) => {
      // npm sees a failed request (and retries or fails the install); the log names the cause.
      log.push(`${request.method} ${request.url} -> upstream failed: ${error.message}`);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`upstream failed: ${error.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    log,
    integrity: Object.fromEntries([...ours.values()].map((entry) => [entry.manifest.name, entry.integrity])),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
