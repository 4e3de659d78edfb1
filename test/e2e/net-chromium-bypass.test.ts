/**
 * Why each lockdown measure is there: a Chromium launched with the egress flags EXCEPT
 * `--proxy-bypass-list=<-loopback>`, and without the egress profile preferences, still
 * reaches a loopback canary around the proxy, by HTTP, by WebRTC (STUN over UDP) and by
 * WebTransport (QUIC over UDP). net-chromium.test.ts shows the same paths closed with the
 * complete set. This also records that --force-webrtc-ip-handling-policy (kept in the flags)
 * does not stop WebRTC's UDP on this Chromium: the profile preference does.
 *
 * Every packet here goes to 127.0.0.1. mDNS host-candidate names are turned off, so WebRTC
 * does not announce anything on a real interface either.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { EGRESS_LOCKDOWN_FLAGS } from '../../src/core/net/chromium-flags.js';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import { createDestinationCheck } from '../../src/core/net/destination-check.js';
import { startEgressProxy, type EgressDenial, type EgressProxy } from '../../src/core/net/egress-proxy.js';
import { seamDialer, seamResolver, startCanary, startUdpCanary, type Canary } from './net-test-kit.js';

let browser: Browser;
let proxy: EgressProxy;
let canary: Canary;
let udp: Awaited<ReturnType<typeof startUdpCanary>>;
const denials: EgressDenial[] = [];

before(async () => {
  canary = await startCanary('canary', false);
  udp = await startUdpCanary();
  proxy = await startEgressProxy({
    check: createDestinationCheck(createNetPolicy(), seamResolver({}).resolve),
    dial: seamDialer().dial,
    onDenied: (d) => denials.push(d),
  });
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    pipe: true,
    args: [
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      `--proxy-server=${proxy.url}`,
      ...EGRESS_LOCKDOWN_FLAGS.filter((flag) => !flag.startsWith('--proxy-bypass-list')),
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
});

test('without <-loopback> and the profile preference, a page reaches loopback around the proxy', async () => {
  const page = await browser.newPage();
  // A loopback page is a secure context (WebTransport needs one); it loads DIRECT, too.
  await page.goto(`http://127.0.0.1:${canary.port}/page`);
  await page.evaluate(
    (c, u) => {
      new Image().src = `http://127.0.0.1:${c}/direct`;
      const pc = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${u}` }] });
      pc.createDataChannel('x');
      void pc.createOffer().then((offer) => pc.setLocalDescription(offer));
      try {
        void new (globalThis as any).WebTransport(`https://127.0.0.1:${u}/wt`).ready.catch(() => undefined);
      } catch {
        // not available: the assertion below says so
      }
    },
    canary.port,
    udp.port,
  );
  // A deadline on the three things arriving, not a wait: the loop ends as soon as they have.
  const deadline = Date.now() + 30_000;
  const stun = () => udp.datagrams.filter((d) => d.bytes < 200);
  const quic = () => udp.datagrams.filter((d) => d.bytes >= 1200); // a QUIC Initial is padded to 1200 bytes
  while (Date.now() < deadline && !(canary.paths().includes('GET /direct') && stun().length > 0 && quic().length > 0)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.close();
  assert.ok(canary.paths().includes('GET /direct'), 'HTTP to 127.0.0.1 went DIRECT (implicit bypass rules)');
  assert.ok(!denials.some((d) => d.port === canary.port), 'the proxy never saw it');
  assert.ok(stun().length > 0, 'WebRTC sent STUN over UDP despite --force-webrtc-ip-handling-policy');
  assert.ok(quic().length > 0, 'WebTransport sent QUIC over UDP despite --disable-quic');
});
