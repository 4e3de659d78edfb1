/**
 * The egress proxy: every connection Chromium opens goes through it (see chromium-flags.ts),
 * and it opens upstream only what the destination check allows.
 *
 * Why a proxy and not request interception in the page: interception sees URLs, not the
 * addresses they resolve to, and Chromium would then resolve the name again itself (DNS
 * rebinding); it also misses WebSockets, workers' and service workers' requests in some
 * versions. A proxy sees every TCP connection, resolves each name once, checks every address
 * and connects to exactly the address it checked.
 *
 * It speaks the two proxy forms Chromium uses: absolute-form requests for http:// URLs and
 * CONNECT tunnels for https://, ws:// and wss://. A refusal is a bare 403 whatever the reason,
 * so a page cannot tell a denied port from a closed one; the reason goes to `onDenied`.
 *
 * node:http and node:net are enough: the proxy libraries on npm (http-proxy, proxy-chain)
 * resolve names themselves inside their connect calls, which is exactly the second lookup
 * this must not make.
 */
import http from 'node:http';
import net from 'node:net';
import { dialFirst, directDialer, type Dialer } from './dial.js';
import type { DestinationCheck, DestinationDecision, DestinationDenyReason } from './destination-check.js';
import { forwardHeaders, upgradeRequestHead } from './forward-headers.js';
import { parseAuthority, parseProxyTarget, urlPort } from './proxy-target.js';

export interface EgressDenial {
  /** How the request reached the proxy: a plain http:// request, a CONNECT tunnel, an upgrade. */
  kind: 'http' | 'connect' | 'upgrade';
  method: string;
  /** The host as the request named it (after canonicalisation when it parsed). */
  host: string;
  port: number;
  reason: DestinationDenyReason | 'bad-request' | 'proxy-self';
  /** For the operator's log; never sent to the page. */
  detail: string;
}

export interface EgressProxyOptions {
  check: DestinationCheck;
  /** Opens upstream connections (default: net.connect to the checked address). A test seam. */
  dial?: Dialer;
  onDenied?: (denial: EgressDenial) => void;
  /** Upstream failures and broken client connections, for the log; the proxy carries on. */
  onError?: (error: Error) => void;
  connectTimeoutMs?: number;
  /** A tunnel or upstream connection with no traffic for this long is closed. */
  idleTimeoutMs?: number;
}

export interface EgressProxy {
  readonly port: number;
  /** `http://127.0.0.1:PORT`, the value of Chromium's --proxy-server. */
  readonly url: string;
  /** Stops listening and destroys every open connection, both sides. */
  close(): Promise<void>;
}

type ProxyDecision = DestinationDecision | { allowed: false; host: string; reason: 'proxy-self'; detail: string };

const FORBIDDEN_BODY = 'Forbidden by the egress policy.\n';
const rawStatus = (status: string) => `HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;


export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const dial = options.dial ?? directDialer;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const reportError = (error: Error) => options.onError?.(error);
  const sockets = new Set<net.Socket>();
  let ownPort = 0;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // Errors on either side end that connection only; without a listener they would crash.
    socket.on('error', reportError);
    return socket;
  };

  const deny = (denial: EgressDenial) => options.onDenied?.(denial);

  /** The check, plus one rule only the proxy knows: it must not be its own upstream (a loop). */
  async function decide(host: string, port: number): Promise<ProxyDecision> {
    const decision = await options.check(host);
    if (!decision.allowed || port !== ownPort) return decision;
    const self = decision.addresses.some((a) => a.classification.class === 'loopback' || a.classification.class === 'unspecified');
    return self ? { allowed: false, host: decision.host, reason: 'proxy-self', detail: `${host}:${port} is the egress proxy itself` } : decision;
  }

  async function open(decision: Extract<DestinationDecision, { allowed: true }>, port: number) {
    const upstream = track(await dialFirst(decision.addresses, port, dial, connectTimeoutMs));
    upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
    return upstream;
  }

  function splice(client: net.Socket, upstream: net.Socket) {
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.setTimeout(idleTimeoutMs, end);
    client.once('close', end);
    upstream.once('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async function handleHttp(req: http.IncomingMessage, res: http.ServerResponse) {
    const target = parseProxyTarget(req.url);
    const method = req.method ?? 'GET';
    const refuse = (status: number, denial?: EgressDenial) => {
      if (denial) deny(denial);
      if (res.destroyed) return;
      if (res.headersSent) return void res.destroy();
      const body = status === 403 ? FORBIDDEN_BODY : '';
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (!target) {
      return refuse(400, { kind: 'http', method, host: '', port: 0, reason: 'bad-request', detail: `not an absolute http:// request: ${String(req.url).slice(0, 200)}` });
    }
    const port = urlPort(target);
    const decision = await decide(target.hostname, port);
    if (!decision.allowed) {
      return refuse(403, { kind: 'http', method, host: decision.host, port, reason: decision.reason, detail: decision.detail });
    }
    let upstream: net.Socket;
    try {
      upstream = await open(decision, port);
    } catch (error) {
      reportError(error as Error);
      return refuse(502);
    }
    if (res.destroyed || res.writableEnded) return void upstream.destroy();

    const upReq = http.request({
      createConnection: () => upstream,
      method,
      path: `${target.pathname}${target.search}`,
      headers: { ...forwardHeaders(req.rawHeaders, ['host']), host: target.host },
      setHost: false,
    });
    upReq.on('response', (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardHeaders(upRes.rawHeaders));
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
      upRes.on('aborted', () => res.destroy());
    });
    upReq.on('error', (error) => {
      reportError(error);
      refuse(502);
    });
    // The page went away (navigated, closed): stop the upstream side too.
    res.on('close', () => {
      if (!res.writableFinished) upReq.destroy();
    });
    req.on('error', () => upReq.destroy());
    req.pipe(upReq);
  }

  async function handleConnect(req: http.IncomingMessage, client: net.Socket, head: Buffer) {
    const method = 'CONNECT';
    const target = parseAuthority(req.url ?? '');
    if (!target) {
      deny({ kind: 'connect', method, host: '', port: 0, reason: 'bad-request', detail: `bad CONNECT target ${String(req.url).slice(0, 200)}` });
      return void client.end(rawStatus('400 Bad Request'));
    }
    const decision = await decide(target.host, target.port);
    if (!decision.allowed) {
      deny({ kind: 'connect', method, host: decision.host, port: target.port, reason: decision.reason, detail: decision.detail });
      return void client.end(rawStatus('403 Forbidden'));
    }
    let upstream: net.Socket;
    try {
      upstream = await open(decision, target.port);
    } catch (error) {
      reportError(error as Error);
      return void client.end(rawStatus('502 Bad Gateway'));
    }
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async function handleUpgrade(req: http.IncomingMessage, client: net.Socket, head: Buffer) {
    const method = req.method ?? 'GET';
    const target = parseProxyTarget(req.url);
    if (!target) {
      deny({ kind: 'upgrade', method, host: '', port: 0, reason: 'bad-request', detail: `not an absolute http:// upgrade: ${String(req.url).slice(0, 200)}` });
      return void client.end(rawStatus('400 Bad Request'));
    }
    const port = urlPort(target);
    const decision = await decide(target.hostname, port);
    if (!decision.allowed) {
      deny({ kind: 'upgrade', method, host: decision.host, port, reason: decision.reason, detail: decision.detail });
      return void client.end(rawStatus('403 Forbidden'));
    }
    let upstream: net.Socket;
    try {
      upstream = await open(decision, port);
    } catch (error) {
      reportError(error as Error);
      return void client.end(rawStatus('502 Bad Gateway'));
    }
    if (client.destroyed) return void upstream.destroy();
    upstream.write(upgradeRequestHead(method, `${target.pathname}${target.search}`, target.host, req.rawHeaders));
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  // A handler that throws must not take the proxy (and every render) down with it.
  const guard = (work: Promise<void>, onFail: () => void) =>
    work.catch((error: Error) => {
      reportError(error);
      onFail();
    });

  const server = http.createServer();
  server.on('connection', track);
  server.on('request', (req, res) => guard(handleHttp(req, res), () => res.destroy()));
  server.on('connect', (req, socket, head) => guard(handleConnect(req, socket as net.Socket, head), () => socket.destroy()));
  server.on('upgrade', (req, socket, head) => guard(handleUpgrade(req, socket as net.Socket, head), () => socket.destroy()));
  server.on('clientError', (error, socket) => {
    reportError(error);
    socket.destroy();
  });
  // Chromium keeps proxy connections open between requests; idle ones are closed after this.
  server.keepAliveTimeout = idleTimeoutMs;
  server.headersTimeout = Math.min(idleTimeoutMs, 60_000) + 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', reportError);
  ownPort = (server.address() as net.AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    port: ownPort,
    url: `http://127.0.0.1:${ownPort}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
