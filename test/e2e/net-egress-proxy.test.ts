/**
 * The egress proxy over real sockets, driven by plain Node clients: the protocol (absolute-form
 * requests, CONNECT, upgrades, keep-alive, bodies, chunked answers), the policy at the socket
 * level, DNS rebinding, faults on either side, and close(). net-chromium.test.ts drives it
 * with a real browser.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { NetPolicyOptions } from '../../src/core/net/address-policy.js';
import { createDestinationCheck, type DestinationCheck } from '../../src/core/net/destination-check.js';
import type { Dialer } from '../../src/core/net/dial.js';
import { startEgressProxy, type EgressDenial, type EgressProxy } from '../../src/core/net/egress-proxy.js';
import { connectThrough, FAKE_PUBLIC, proxyRequest, seamDialer, seamPolicy, seamResolver, startCanary, type Canary } from './net-test-kit.js';

let canary: Canary;
let proxy: EgressProxy;
let denials: EgressDenial[];
let errors: Error[];
let currentCheck: DestinationCheck;
let dialer = seamDialer();
let resolver: ReturnType<typeof seamResolver>;
let dialOverride: Dialer | undefined;
let rebindAnswers: string[][];

function usePolicy(options: NetPolicyOptions = {}) {
  resolver = seamResolver({
    'public.test': [FAKE_PUBLIC],
    'mixed.test': [FAKE_PUBLIC, '127.0.0.1'],
    'rebind.test': () => rebindAnswers.shift() ?? ['127.0.0.1'],
    localhost: ['127.0.0.1'],
  });
  currentCheck = createDestinationCheck(seamPolicy(options), resolver.resolve);
}

before(async () => {
  canary = await startCanary();
  proxy = await startEgressProxy({
    check: (host) => currentCheck(host),
    dial: (target) => (dialOverride ?? dialer.dial)(target),
    onDenied: (d) => denials.push(d),
    onError: (e) => errors.push(e),
    connectTimeoutMs: 500,
  });
});

after(async () => {
  await proxy.close();
  await canary.close();
});

beforeEach(() => {
  canary.reset();
  denials = [];
  errors = [];
  dialer = seamDialer();
  dialOverride = undefined;
  rebindAnswers = [];
  usePolicy();
});

describe('plain http:// requests (absolute form)', () => {
  test('a public destination is proxied to exactly the checked address, with Host from the URL', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/echo?x=1`, {
      headers: { host: 'liar.example', 'proxy-authorization': 'Basic c2VjcmV0', 'proxy-connection': 'keep-alive', 'x-kept': 'yes' },
    });
    assert.equal(res.status, 200);
    const echoed = JSON.parse(res.body);
    assert.equal(echoed.url, '/echo?x=1');
    assert.equal(echoed.headers.host, `public.test:${canary.port}`);
    assert.equal(echoed.headers['x-kept'], 'yes');
    assert.equal(echoed.headers['proxy-authorization'], undefined);
    assert.equal(echoed.headers['proxy-connection'], undefined);
    assert.deepEqual(dialer.targets, [{ address: FAKE_PUBLIC, family: 4, port: canary.port }]);
    assert.deepEqual(resolver.calls, ['public.test']);
  });

  test('a request body with a length is passed on', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/echo`, { method: 'POST', body: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.deepEqual([JSON.parse(res.body).method, JSON.parse(res.body).body], ['POST', 'a=1&b=2']);
  });

  test('a chunked request body is passed on', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/echo`, { method: 'PUT', body: ['part1-', 'part2-', 'part3'], headers: { 'transfer-encoding': 'chunked' } });
    assert.equal(JSON.parse(res.body).body, 'part1-part2-part3');
  });

  test('a chunked (streamed) response arrives whole', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/chunked`);
    assert.equal(res.status, 200);
    assert.equal(res.body, 'one,two,three');
  });

  test('a 1 MiB response arrives whole', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/big`);
    assert.equal(res.body.length, 1024 * 1024);
  });

  test('redirects are passed back to the client, not followed by the proxy', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/redirect?to=http://127.0.0.1:${canary.port}/secret`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `http://127.0.0.1:${canary.port}/secret`);
    assert.deepEqual(canary.paths(), ['GET /redirect']);
  });

  test('keep-alive: several requests share one client connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    for (let i = 0; i < 3; i += 1) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: proxy.port, path: `http://public.test:${canary.port}/n${i}`, agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        reused.push(false);
        req.on('socket', () => (reused[i] = req.reusedSocket));
        req.end();
      });
    }
    agent.destroy();
    assert.deepEqual(reused, [false, true, true]);
    assert.deepEqual(canary.paths(), ['GET /n0', 'GET /n1', 'GET /n2']);
  });

  test('a denied request answers 403 and the canary sees nothing', async () => {
    const res = await proxyRequest(proxy.port, `http://127.0.0.1:${canary.port}/secret`);
    assert.equal(res.status, 403);
    assert.equal(res.body, 'Forbidden by the egress policy.\n');
    assert.equal(canary.connections, 0);
    assert.deepEqual(dialer.targets, []);
    assert.deepEqual(denials.map((d) => [d.kind, d.host, d.port, d.reason]), [['http', '127.0.0.1', canary.port, 'loopback']]);
  });

  test('a denied request with a body answers 403 and the connection stays usable', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const denied = await proxyRequest(proxy.port, `http://127.0.0.1:${canary.port}/form`, { method: 'POST', body: 'x'.repeat(100_000), agent });
    const next = await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`, { agent });
    agent.destroy();
    assert.deepEqual([denied.status, next.status], [403, 200]);
    assert.deepEqual(canary.paths(), ['GET /after']);
  });

  test('the answer does not tell a listening port from a closed one', async () => {
    const open = await proxyRequest(proxy.port, `http://127.0.0.1:${canary.port}/`);
    const closed = await proxyRequest(proxy.port, 'http://127.0.0.1:1/');
    const nowhere = await proxyRequest(proxy.port, 'http://nowhere.test/');
    const strip = (r: typeof open) => ({ status: r.status, body: r.body, headers: { ...r.headers, date: undefined } });
    assert.deepEqual(strip(open), strip(closed));
    assert.deepEqual(strip(open), strip(nowhere));
  });

  // Node's client sends the path as written, so the proxy sees the raw spelling.
  for (const [spelling, reason] of [
    ['2130706433', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['[64:ff9b::7f00:1]', 'loopback'],
    ['[::127.0.0.1]', 'ipv4-embedded'],
    ['localhost', 'localhost-name'],
    ['LOCALHOST.', 'localhost-name'],
    ['foo.localhost', 'localhost-name'],
    ['0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['metadata.google.internal', 'metadata-name'],
    ['mixed.test', 'loopback'],
    ['10.0.0.1', 'private'],
  ] as const) {
    test(`http://${spelling}:PORT/ is denied (${reason})`, async () => {
      const res = await proxyRequest(proxy.port, `http://${spelling}:${canary.port}/x`);
      assert.equal(res.status, 403);
      assert.equal(denials[0]?.reason, reason);
      assert.equal(canary.connections, 0);
      assert.deepEqual(dialer.targets, []);
    });
  }

  test('userinfo in the request target is refused (Chromium never sends it)', async () => {
    const res = await proxyRequest(proxy.port, `http://public.test@127.0.0.1:${canary.port}/x`);
    assert.equal(res.status, 400);
    assert.equal(canary.connections, 0);
  });

  test('an origin-form request (not a proxy request) answers 400', async () => {
    const res = await proxyRequest(proxy.port, '/index.html');
    assert.equal(res.status, 400);
    assert.equal(denials[0]?.reason, 'bad-request');
  });

  test('an absolute https:// request answers 400 (https goes through CONNECT)', async () => {
    const res = await proxyRequest(proxy.port, `https://public.test:${canary.port}/`);
    assert.equal(res.status, 400);
    assert.equal(canary.connections, 0);
  });
});

describe('DNS rebinding', () => {
  test('a name is resolved once per request and the connection goes to the address that was checked', async () => {
    rebindAnswers = [[FAKE_PUBLIC], ['127.0.0.1']];
    const first = await proxyRequest(proxy.port, `http://rebind.test:${canary.port}/first`);
    assert.equal(first.status, 200);
    assert.deepEqual(resolver.calls, ['rebind.test']);
    assert.deepEqual(dialer.targets.map((t) => t.address), [FAKE_PUBLIC]);
    // The name now points at loopback: the next request is checked afresh and denied.
    const second = await proxyRequest(proxy.port, `http://rebind.test:${canary.port}/second`);
    assert.equal(second.status, 403);
    assert.deepEqual(dialer.targets.map((t) => t.address), [FAKE_PUBLIC]);
    assert.deepEqual(canary.paths(), ['GET /first']);
  });

  test('a name with one public and one private address is denied before any connection', async () => {
    const res = await proxyRequest(proxy.port, `http://mixed.test:${canary.port}/`);
    assert.equal(res.status, 403);
    assert.deepEqual(dialer.targets, []);
  });
});

describe('CONNECT tunnels (https, ws, wss)', () => {
  test('an allowed tunnel carries bytes both ways to the checked address', async () => {
    const { statusLine, socket } = await connectThrough(proxy.port, `public.test:${canary.port}`);
    assert.equal(statusLine, 'HTTP/1.1 200 Connection Established');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.write(`GET /through-tunnel HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n`);
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 200/);
    assert.deepEqual(canary.paths(), ['GET /through-tunnel']);
    assert.deepEqual(dialer.targets, [{ address: FAKE_PUBLIC, family: 4, port: canary.port }]);
  });

  for (const [authority, reason] of [
    ['127.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['localhost', 'localhost-name'],
    ['169.254.169.254', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['mixed.test', 'loopback'],
  ] as const) {
    test(`CONNECT ${authority}:PORT answers 403 and closes (${reason})`, async () => {
      const { statusLine, socket } = await connectThrough(proxy.port, `${authority}:${canary.port}`);
      await new Promise((resolve) => (socket.destroyed ? resolve(null) : socket.once('close', resolve)));
      assert.equal(statusLine, 'HTTP/1.1 403 Forbidden');
      assert.equal(denials[0]?.reason, reason);
      assert.equal(denials[0]?.kind, 'connect');
      assert.equal(canary.connections, 0);
    });
  }

  for (const authority of ['nonsense', 'public.test', 'public.test:0', 'public.test:99999', 'user@public.test:443', 'public.test:443/x']) {
    test(`CONNECT ${authority} answers 400`, async () => {
      const { statusLine } = await connectThrough(proxy.port, authority);
      assert.equal(statusLine, 'HTTP/1.1 400 Bad Request');
      assert.equal(canary.connections, 0);
    });
  }
});

describe('upgrades in absolute form (WebSocket through a plain proxy request)', () => {
  const upgrade = (url: string) =>
    new Promise<{ status: number; socket?: net.Socket }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port: proxy.port,
        path: url,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
      });
      req.on('upgrade', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      });
      req.on('error', reject);
      req.end();
    });

  test('an allowed upgrade is spliced through', async () => {
    const { status, socket } = await upgrade(`http://public.test:${canary.port}/ws`);
    assert.equal(status, 101);
    const echoed = await new Promise<string>((resolve) => {
      socket!.once('data', (d) => resolve(d.toString()));
      socket!.write('ping');
    });
    socket!.destroy();
    assert.equal(echoed, 'ping');
    assert.deepEqual(canary.paths(), ['UPGRADE /ws']);
  });

  test('a denied upgrade answers 403', async () => {
    const { status } = await upgrade(`http://127.0.0.1:${canary.port}/ws`);
    assert.equal(status, 403);
    assert.equal(canary.connections, 0);
  });
});

describe('operator settings at the proxy', () => {
  test('allowPrivate lets loopback through', async () => {
    usePolicy({ allowPrivate: true });
    const res = await proxyRequest(proxy.port, `http://127.0.0.1:${canary.port}/private-ok`);
    assert.equal(res.status, 200);
    assert.deepEqual(canary.paths(), ['GET /private-ok']);
  });

  test('even with allowPrivate, the proxy will not connect to itself', async () => {
    usePolicy({ allowPrivate: true });
    const res = await proxyRequest(proxy.port, `http://127.0.0.1:${proxy.port}/loop`);
    assert.equal(res.status, 403);
    assert.equal(denials[0]?.reason, 'proxy-self');
    const tunnel = await connectThrough(proxy.port, `127.0.0.1:${proxy.port}`);
    assert.equal(tunnel.statusLine, 'HTTP/1.1 403 Forbidden');
  });

  test('a CIDR allow-list entry lets exactly that range through', async () => {
    usePolicy({ allow: ['127.0.0.0/8'] });
    assert.equal((await proxyRequest(proxy.port, `http://127.0.0.1:${canary.port}/cidr`)).status, 200);
    assert.equal((await proxyRequest(proxy.port, `http://[::1]:${canary.port6}/cidr6`)).status, 403);
    assert.deepEqual(canary.paths(), ['GET /cidr']);
  });

  test('allow-list only: an unlisted public name is denied without a lookup', async () => {
    usePolicy({ allowPublic: false });
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/`);
    assert.equal(res.status, 403);
    assert.equal(denials[0]?.reason, 'not-allow-listed');
    assert.deepEqual(resolver.calls, []);
  });

  test('allow-list only: a listed name goes through', async () => {
    usePolicy({ allowPublic: false, allow: ['public.test'] });
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/listed`)).status, 200);
  });
});

describe('faults on either side', () => {
  test('an upstream that refuses the connection gives 502, and the proxy carries on', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const res = await proxyRequest(proxy.port, `http://public.test:${closedPort}/`);
    assert.equal(res.status, 502);
    assert.ok(errors.length > 0);
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`)).status, 200);
  });

  test('an upstream that never answers the connect times out with 502', async () => {
    dialOverride = () => new net.Socket(); // never connects, never errors
    const started = Date.now();
    const res = await proxyRequest(proxy.port, `http://public.test:${canary.port}/`);
    assert.equal(res.status, 502);
    assert.ok(Date.now() - started < 3000);
  });

  test('an upstream that dies mid-response breaks that response only', async () => {
    await assert.rejects(proxyRequest(proxy.port, `http://public.test:${canary.port}/reset`));
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`)).status, 200);
  });

  test('a client that goes away mid-request does not hurt the proxy', async () => {
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'POST', path: `http://public.test:${canary.port}/echo`, headers: { 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('only part of it');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`)).status, 200);
  });

  test('garbage on the proxy port closes that connection only', async () => {
    await new Promise<void>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: proxy.port }, () => s.write('\x16\x03\x01\x02\x00garbage\r\n\r\n'));
      s.on('close', () => resolve());
      s.on('error', () => undefined);
      s.resume();
    });
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`)).status, 200);
  });

  test('a tunnel whose far end closes is closed on the near end too', async () => {
    const { socket } = await connectThrough(proxy.port, `public.test:${canary.port}`);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    socket.resume();
    socket.write('NOT HTTP\r\n\r\n'); // the canary drops the connection
    await closed;
    assert.equal((await proxyRequest(proxy.port, `http://public.test:${canary.port}/after`)).status, 200);
  });
});

describe('close()', () => {
  test('destroys open tunnels and keep-alive connections and stops listening', async () => {
    const own = await startEgressProxy({ check: (host) => currentCheck(host), dial: dialer.dial });
    const { socket: tunnel } = await connectThrough(own.port, `public.test:${canary.port}`);
    const agent = new http.Agent({ keepAlive: true });
    await proxyRequest(own.port, `http://public.test:${canary.port}/keep`, { agent });
    const tunnelClosed = new Promise((resolve) => tunnel.once('close', resolve));
    tunnel.on('error', () => undefined);
    tunnel.resume();
    await own.close();
    await tunnelClosed;
    await own.close(); // a second close is harmless
    await assert.rejects(proxyRequest(own.port, `http://public.test:${canary.port}/`), /ECONNREFUSED/);
    agent.destroy();
  });
});
