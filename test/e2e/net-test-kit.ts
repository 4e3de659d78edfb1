/**
 * Shared pieces of the egress tests (net-*.test.ts): canary servers that record every
 * connection, and the test seam for "public" destinations.
 *
 * The seam: this machine has no internet and the tests must never send a packet to a
 * non-loopback address. So a public destination is faked in three places, all inside the
 * test: a resolver maps names such as public.test to FAKE_PUBLIC; a policy wrapper judges
 * FAKE_PUBLIC public (the real policy calls it 'reserved'); and a dialer connects FAKE_PUBLIC
 * to 127.0.0.1. FAKE_PUBLIC is in TEST-NET-1, which no network routes, and the dialer refuses
 * any other non-loopback target, so even a broken seam sends nothing off the machine.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { createNetPolicy, type NetPolicy, type NetPolicyOptions } from '../../src/core/net/address-policy.js';
import { classifyIp } from '../../src/core/net/ip-class.js';
import type { DialTarget, Dialer } from '../../src/core/net/dial.js';
import type { Resolver } from '../../src/core/net/resolver.js';

export const FAKE_PUBLIC = '192.0.2.10';

export interface Hit {
  server: string;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Canary {
  /** Port on 127.0.0.1. */
  port: number;
  /** Port on [::1] (same log). */
  port6: number;
  hits: Hit[];
  /** Every TCP connection accepted, whatever was sent on it (TLS, TURN, garbage). */
  connections: number;
  paths(): string[];
  reset(): void;
  close(): Promise<void>;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * An HTTP server that records every request and answers a few test routes:
 * /echo (the request back as JSON), /chunked (a streamed body), /big (1 MiB), /reset (the
 * connection dies mid-response), /redirect?to=URL (302), WebSocket upgrades (101, then echo).
 * Any other path answers 200 "canary" with CORS open, so a page can read what it reached.
 */
export async function startCanary(name = 'canary', listen6 = true): Promise<Canary> {
  const hits: Hit[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      hits.push({ server: name, method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://canary');
      res.setHeader('access-control-allow-origin', '*');
      if (url.pathname === '/echo') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
      }
      if (url.pathname === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('one,');
        setTimeout(() => res.write('two,'), 20);
        setTimeout(() => res.end('three'), 40);
        return;
      }
      if (url.pathname === '/big') return res.end(Buffer.alloc(1024 * 1024, 'x'));
      if (url.pathname === '/reset') {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        return res.end();
      }
      res.setHeader('content-type', url.pathname.endsWith('.js') ? 'text/javascript' : url.pathname.endsWith('.css') ? 'text/css' : 'text/plain');
      res.end(url.pathname.endsWith('.js') ? '/* canary */' : 'canary');
    });
  };

  const make = () => {
    const server = http.createServer(handler);
    server.on('connection', (socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server.on('clientError', (error, socket) => {
      hits.push({ server: name, method: 'RAW', url: `(not HTTP: ${error.message})`, headers: {}, body: '' });
      socket.destroy();
    });
    server.on('upgrade', (req, socket) => {
      hits.push({ server: name, method: 'UPGRADE', url: req.url ?? '', headers: req.headers, body: '' });
      const key = String(req.headers['sec-websocket-key'] ?? '');
      const accept = crypto.createHash('sha1').update(key + WS_GUID).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.on('data', (data) => socket.write(data));
      socket.on('error', () => socket.destroy());
    });
    server.on('connect', (req, socket) => {
      hits.push({ server: name, method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' });
      socket.destroy();
    });
    return server;
  };

  const listen = (server: http.Server, host: string) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
    });

  const v4 = make();
  const v6 = make();
  const port = await listen(v4, '127.0.0.1');
  const port6 = listen6 ? await listen(v6, '::1') : 0;
  return {
    port,
    port6,
    hits,
    get connections() {
      return connections;
    },
    paths: () => hits.map((h) => `${h.method} ${new URL(h.url.startsWith('/') ? h.url : '/', 'http://x').pathname}`),
    reset() {
      hits.length = 0;
      connections = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([v4, ...(listen6 ? [v6] : [])].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** A UDP socket on 127.0.0.1 that records every datagram (STUN, QUIC...). */
export async function startUdpCanary() {
  const datagrams: { from: string; bytes: number }[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => datagrams.push({ from: `${remote.address}:${remote.port}`, bytes: message.length }));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    datagrams,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** The real policy, except that FAKE_PUBLIC is judged a public address (the test seam). */
export function seamPolicy(options: NetPolicyOptions = {}): NetPolicy {
  const real = createNetPolicy(options);
  return {
    ...real,
    checkAddress(address, context) {
      if (address !== FAKE_PUBLIC) return real.checkAddress(address, context);
      if (!real.allowPublic && !context?.trustedHost) return real.checkAddress(address, context);
      const classification = { ...classifyIp(address)!, class: 'public' as const };
      return { allowed: true, address, family: 4, basis: context?.trustedHost ? 'allow-list' : 'public', classification };
    },
  };
}

/** A resolver over a fixed table; a name mapped to a function gets a fresh answer each call. */
export function seamResolver(zone: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const entry = zone[hostname.toLowerCase().replace(/\.$/, '')];
    const addresses = typeof entry === 'function' ? entry() : entry;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
  };
  return { resolve, calls };
}

/** Connects FAKE_PUBLIC to loopback; loopback as is; refuses anything else. Records targets. */
export function seamDialer() {
  const targets: DialTarget[] = [];
  const dial: Dialer = (target) => {
    targets.push(target);
    if (target.address === FAKE_PUBLIC) return net.connect({ host: '127.0.0.1', port: target.port });
    const c = classifyIp(target.address);
    if (c?.class !== 'loopback') throw new Error(`test seam: refusing to dial non-loopback ${target.address}`);
    return net.connect({ host: target.address, port: target.port });
  };
  return { dial, targets };
}

/** Sends one request through an HTTP proxy in absolute form and collects the answer. */
export function proxyRequest(
  proxyPort: number,
  url: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string | string[]; agent?: http.Agent } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: options.method ?? 'GET', path: url, headers: options.headers, agent: options.agent });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (Array.isArray(options.body)) for (const part of options.body) req.write(part);
    else if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Opens a CONNECT tunnel; resolves with the status line and the socket (open on 200). */
export function connectThrough(proxyPort: number, authority: string): Promise<{ statusLine: string; socket: net.Socket; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: proxyPort });
    let buffered = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    const onData = (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      resolve({ statusLine: buffered.subarray(0, buffered.indexOf('\r\n')).toString(), socket, rest: buffered.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.on('end', () => resolve({ statusLine: buffered.toString().split('\r\n')[0] ?? '', socket, rest: Buffer.alloc(0) }));
  });
}
