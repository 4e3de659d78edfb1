/**
 * A real Chromium behind the egress proxy, launched with egressChromiumArgs() and the egress
 * profile preferences, tries every way a page has to reach a canary server on 127.0.0.1.
 * Strict policy: the canary sees no request and no connection, the UDP canary no datagram.
 * The same page with the canary allowed (allowPrivate, then a CIDR entry) does reach it, so
 * the strict run is not passing because the page is broken. One browser for the file; each
 * run gets its own browser context, as a team's render would.
 *
 * The attack page is served from site.test, a "public" host reached through the test seam
 * described in net-test-kit.ts (no packet leaves loopback).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { NetPolicyOptions } from '../../src/core/net/address-policy.js';
import { egressChromiumArgs } from '../../src/core/net/chromium-flags.js';
import { createDestinationCheck, type DestinationCheck } from '../../src/core/net/destination-check.js';
import { startEgressProxy, type EgressDenial, type EgressProxy } from '../../src/core/net/egress-proxy.js';
import { writeEgressProfilePreferences } from '../../src/core/net/profile-preferences.js';
import { FAKE_PUBLIC, seamDialer, seamPolicy, seamResolver, startCanary, startUdpCanary, type Canary } from './net-test-kit.js';

const CHROMIUM = '/usr/bin/chromium';
const runningAsRoot = process.getuid?.() === 0;

let browser: Browser;
let userDataDir: string;
let proxy: EgressProxy;
let canary: Canary;
let udp: Awaited<ReturnType<typeof startUdpCanary>>;
let site: http.Server;
let sitePort: number;
let denials: EgressDenial[] = [];
let consoleLines: string[] = [];
let currentCheck: DestinationCheck;
let dialer = seamDialer();

function usePolicy(options: NetPolicyOptions) {
  const { resolve } = seamResolver({
    'site.test': [FAKE_PUBLIC],
    'public.test': [FAKE_PUBLIC],
    // What a system resolver with nss-myhostname answers; only reached when the policy lets
    // loopback names through (allowPrivate).
    localhost: ['127.0.0.1'],
  });
  currentCheck = createDestinationCheck(seamPolicy(options), resolve);
  denials = [];
  consoleLines = [];
  dialer = seamDialer();
  canary.reset();
}

/** The page that tries everything. C: canary port, C6: canary port on [::1], U: UDP canary. */
function attackPage(C: number, C6: number, U: number): string {
  const at = (p: string) => `http://127.0.0.1:${C}/${p}`;
  return `<!doctype html><html><head>
<link rel="stylesheet" href="${at('style.css')}">
<script src="${at('script.js')}"></script>
<style>
  @import url(${at('import.css')});
  body { background: url(${at('background.png')}); }
  @font-face { font-family: canary; src: url(${at('font.woff2')}); }
  p { font-family: canary; }
</style>
</head><body><p>attack page</p>
<img src="${at('img')}">
<img src="http://2130706433:${C}/decimal">
<img src="http://0x7f.1:${C}/hex">
<img src="http://0177.0.0.1:${C}/octal">
<img src="http://127.1:${C}/short">
<img src="http://127.0.0.1.:${C}/trailing-dot">
<img src="http://%31%32%37.0.0.1:${C}/percent">
<img src="http://[::ffff:127.0.0.1]:${C}/mapped">
<img src="http://[::1]:${C6}/ipv6">
<img src="http://localhost:${C}/localhost">
<img src="http://LOCALHOST.:${C}/localhost-upper-dot">
<img src="/redirect?to=${encodeURIComponent(at('redirect'))}">
<iframe src="${at('iframe')}"></iframe>
<iframe name="sink"></iframe>
<form id="form" method="post" action="${at('form')}" target="sink"><input name="a" value="1"></form>
<video src="${at('video')}"></video>
<object data="${at('object')}"></object>
<script>
  document.getElementById('form').submit();
  fetch('${at('fetch')}', { mode: 'no-cors' }).catch(() => {});
  fetch('https://127.0.0.1:${C}/https', { mode: 'no-cors' }).catch(() => {});
  const xhr = new XMLHttpRequest(); xhr.open('GET', '${at('xhr')}'); xhr.onerror = () => {}; xhr.send();
  navigator.sendBeacon('${at('beacon')}', 'beacon-body');
  new EventSource('${at('eventsource')}').onerror = (e) => e.target.close();
  try { new WebSocket('ws://127.0.0.1:${C}/ws').onerror = () => {}; } catch {}
  try { new WebSocket('wss://127.0.0.1:${C}/wss').onerror = () => {}; } catch {}
  new Worker('/worker.js?target=${encodeURIComponent(at('worker'))}');
  new SharedWorker('/worker.js?target=${encodeURIComponent(at('shared-worker'))}');
  navigator.serviceWorker?.register('/worker.js?target=${encodeURIComponent(at('service-worker'))}').catch(() => {});
  new Worker(URL.createObjectURL(new Blob(["fetch('${at('blob-worker')}').catch(() => {})"], { type: 'text/javascript' })));
  const nav = document.createElement('iframe'); document.body.append(nav); nav.contentWindow.location = '${at('frame-navigation')}';
  try {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${U}' }, { urls: 'turn:127.0.0.1:${C}?transport=tcp', username: 'u', credential: 'c' }] });
    pc.createDataChannel('x');
    pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => {});
  } catch {}
  try { new WebTransport('https://127.0.0.1:${U}/webtransport').ready.catch(() => {}); } catch {}
</script></body></html>`;
}

/** What the allowed runs must see: every path in the page that is not left to timing. */
const REACHABLE_BY_ADDRESS = [
  'GET /style.css',
  'GET /script.js',
  'GET /import.css',
  'GET /background.png',
  'GET /font.woff2',
  'GET /video',
  'GET /object',
  'GET /img',
  'GET /decimal',
  'GET /hex',
  'GET /octal',
  'GET /short',
  'GET /trailing-dot',
  'GET /percent',
  'GET /userinfo',
  'GET /mapped',
  'GET /ipv6',
  'GET /redirect',
  'GET /iframe',
  'POST /form',
  'GET /fetch',
  'GET /xhr',
  'POST /beacon',
  'GET /eventsource',
  'UPGRADE /ws',
  'GET /worker',
  'GET /blob-worker',
  'GET /shared-worker',
  'GET /service-worker',
  'GET /frame-navigation',
  'GET /popup',
  'GET /location',
  'GET /top-level',
];
const REACHABLE_BY_NAME = ['GET /localhost', 'GET /localhost-upper-dot'];

async function startSite(): Promise<number> {
  site = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.test');
    if (url.pathname === '/attack') {
      res.setHeader('content-type', 'text/html');
      return res.end(attackPage(Number(url.searchParams.get('c')), Number(url.searchParams.get('c6')), Number(url.searchParams.get('u'))));
    }
    if (url.pathname === '/public') {
      res.setHeader('content-type', 'text/html');
      const c = url.searchParams.get('c');
      return res.end(`<!doctype html><img src="http://public.test:${c}/public-img">
<script>fetch('http://public.test:${c}/public-fetch').catch(() => {});
try { new WebSocket('ws://public.test:${c}/public-ws').onerror = () => {}; } catch {}</script>`);
    }
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return res.end();
    }
    if (url.pathname === '/worker.js') {
      res.setHeader('content-type', 'text/javascript');
      return res.end(`fetch(new URL(self.location.href).searchParams.get('target')).catch(() => {});`);
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return (site.address() as net.AddressInfo).port;
}

/** Polls `check` every 50 ms until it holds or `timeoutMs` has passed; answers whether it held. */
async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Every path of the attack page that reaches the canary when allowed: each is one request the proxy must judge. */
const ATTEMPTS = () => [...REACHABLE_BY_ADDRESS, ...REACHABLE_BY_NAME];

/** Waits until the canary has seen every wanted path (with a deadline); then the test reads what it saw. */
async function settle(wanted: string[]) {
  await waitFor(() => wanted.every((w) => canary.paths().includes(w)));
}

/**
 * Waits until the proxy has refused at least `count` requests for the canary (with a
 * deadline), so that "the canary heard nothing" is read after the attempts, not before them.
 */
async function refusedAtLeast(count: number) {
  const refused = () => denials.filter((d) => d.port === canary.port || d.port === canary.port6 || d.port === udp.port).length;
  assert.ok(await waitFor(() => refused() >= count), `the proxy refused ${refused()} requests for the canary, fewer than the ${count} attempts`);
}

/** Loads the attack page in a fresh context, plus a popup, a location change and top-level gotos; `done` waits for their outcome. */
async function runAttack(done: () => Promise<void>): Promise<void> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(`http://site.test:${sitePort}/attack?c=${canary.port}&c6=${canary.port6}&u=${udp.port}`, { waitUntil: 'load', timeout: 15_000 });
    // evaluate runs with a user gesture, so the popup blocker lets window.open through.
    const popup = context.waitForTarget((target) => target.url().endsWith('/popup'), { timeout: 15_000 }).catch(() => undefined);
    await page.evaluate((c) => void window.open(`http://127.0.0.1:${c}/popup`), canary.port);
    await popup;
    const moved = page.waitForNavigation({ timeout: 15_000 }).catch(() => undefined);
    await page.evaluate((c) => void (location.href = `http://127.0.0.1:${c}/location`), canary.port).catch(() => undefined);
    await moved;
    const top = await context.newPage();
    await top.goto(`http://127.0.0.1:${canary.port}/top-level`, { timeout: 10_000 }).catch(() => undefined);
    // Chromium refuses credentials in sub-resource URLs, but a navigation (the render's url) keeps them.
    await top.goto(`http://example.com@127.0.0.1:${canary.port}/userinfo`, { timeout: 10_000 }).catch(() => undefined);
    await top.goto(`https://127.0.0.1:${canary.port}/top-level-https`, { timeout: 10_000 }).catch(() => undefined);
    await done();
  } finally {
    await context.close();
  }
}

before(async () => {
  canary = await startCanary();
  udp = await startUdpCanary();
  sitePort = await startSite();
  usePolicy({});
  proxy = await startEgressProxy({ check: (host) => currentCheck(host), dial: (t) => dialer.dial(t), onDenied: (d) => denials.push(d) });
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-net-e2e-'));
  await writeEgressProfilePreferences(userDataDir);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    userDataDir,
    args: [
      ...(runningAsRoot ? ['--no-sandbox'] : []),
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // Test only: the attack page's origin counts as secure, so that the APIs reserved to
      // secure contexts (service workers, WebTransport) are there for it to try.
      `--unsafely-treat-insecure-origin-as-secure=http://site.test:${sitePort}`,
      ...egressChromiumArgs(proxy.port),
    ],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
});

after(async () => {
  await browser?.close();
  await proxy?.close();
  await canary?.close();
  await udp?.close();
  await new Promise((r) => site?.close(r));
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

describe('Chromium behind the egress proxy', () => {
  test('strict policy: the canary sees no request, no connection, no datagram', async () => {
    usePolicy({});
    await runAttack(async () => {
      await refusedAtLeast(ATTEMPTS().length);
      await waitFor(() => consoleLines.some((l) => /webtransport/i.test(l)));
    });
    assert.deepEqual(canary.hits, []);
    assert.equal(canary.connections, 0);
    assert.deepEqual(udp.datagrams, []);
    // The attack ran: the proxy was asked for the canary in many ways and refused each.
    const reasons = new Set(denials.map((d) => d.reason));
    for (const reason of ['loopback', 'localhost-name']) assert.ok(reasons.has(reason as never), `no ${reason} denial in ${[...reasons]}`);
    assert.ok(denials.some((d) => d.kind === 'connect' && d.host === '127.0.0.1'), 'https/wss went through CONNECT and were refused');
    // WebTransport cannot go through an HTTP proxy, and with one configured Chromium fails it
    // closed instead of sending QUIC to the UDP port (net-chromium-bypass shows it would).
    assert.ok(consoleLines.some((l) => /webtransport.*ERR_TUNNEL_CONNECTION_FAILED/.test(l)), consoleLines.join('\n'));
    // Chromium normalised every spelling before asking the proxy, as the WHATWG parser does.
    const hosts = new Set(denials.filter((d) => d.port === canary.port || d.port === canary.port6 || d.port === udp.port).map((d) => d.host));
    assert.deepEqual([...hosts].sort(), ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', 'localhost', 'localhost.'].sort());
    // Nothing but the page's own host was ever dialled.
    assert.ok(dialer.targets.every((t) => t.address === FAKE_PUBLIC && t.port === sitePort), JSON.stringify(dialer.targets));
  });

  test('the same page with allowPrivate reaches the canary by every path (the strict test can fail)', async () => {
    usePolicy({ allowPrivate: true });
    await runAttack(() => settle(ATTEMPTS()));
    const seen = canary.paths();
    const missing = [...REACHABLE_BY_ADDRESS, ...REACHABLE_BY_NAME].filter((p) => !seen.includes(p));
    assert.deepEqual(missing, [], `seen: ${seen.join(', ')}`);
    // https, wss and TURN-over-TCP reached it through CONNECT tunnels (not HTTP, so logged raw).
    assert.ok(seen.some((p) => p.startsWith('RAW')), 'a CONNECT tunnel reached the canary');
    // Even allowed, WebRTC and WebTransport sent no UDP: the profile preference and the flags hold.
    assert.deepEqual(udp.datagrams, []);
  });

  test('the same page with a CIDR allow-list entry reaches the canary by address, not by a loopback name', async () => {
    usePolicy({ allow: ['127.0.0.0/8', '::1'] });
    await runAttack(async () => {
      await settle(REACHABLE_BY_ADDRESS);
      // The by-name requests were made (and refused) before their absence is read.
      await waitFor(() => denials.filter((d) => d.reason === 'localhost-name' && d.port === canary.port).length >= REACHABLE_BY_NAME.length);
    });
    const seen = canary.paths();
    assert.deepEqual(REACHABLE_BY_ADDRESS.filter((p) => !seen.includes(p)), [], `seen: ${seen.join(', ')}`);
    for (const p of REACHABLE_BY_NAME) assert.ok(!seen.includes(p), `${p} went through`);
    assert.ok(denials.some((d) => d.reason === 'localhost-name'));
  });

  test('a public destination (test seam) is reached through the proxy at the checked address', async () => {
    usePolicy({});
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://site.test:${sitePort}/public?c=${canary.port}`, { waitUntil: 'load' });
      await settle(['GET /public-img', 'GET /public-fetch', 'UPGRADE /public-ws']);
    } finally {
      await context.close();
    }
    assert.deepEqual(canary.paths().sort(), ['GET /public-fetch', 'GET /public-img', 'UPGRADE /public-ws']);
    assert.equal(canary.hits.find((h) => h.url === '/public-img')?.headers.host, `public.test:${canary.port}`);
    assert.ok(dialer.targets.every((t) => t.address === FAKE_PUBLIC));
  });

  test('a denied top-level navigation shows the proxy’s bare 403, and the next render works', async () => {
    usePolicy({});
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`http://2130706433:${canary.port}/`);
      assert.equal(response?.status(), 403);
      assert.equal(await page.evaluate(() => document.body.innerText.trim()), 'Forbidden by the egress policy.');
      await assert.rejects(page.goto(`https://127.0.0.1:${canary.port}/`), /ERR_TUNNEL_CONNECTION_FAILED/);
      const ok = await page.goto(`http://site.test:${sitePort}/public?c=1`);
      assert.equal(ok?.status(), 200);
    } finally {
      await context.close();
    }
    assert.equal(canary.connections, 0);
  });
});
