/**
 * The dashboard's sign-in and its edges, on the app itself (Fastify inject, a real SQLite
 * store, no browser: nothing here renders): wrong keys are refused with a clear message and
 * rate-limited per client address (429 with Retry-After, other addresses unaffected), a
 * session idle past its time is refused, unknown dashboard endpoints answer JSON 404s, asset
 * names cannot leave the asset folder, and --no-dashboard (no `dashboard` option) serves none of it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import { openStore, type Store } from '../../src/core/store/index.js';
import { webAssets } from '../../src/core/web-assets.js';
import { createApp } from '../../src/server/app.js';
import type { AppDeps } from '../../src/server/deps.js';

const ORIGIN = 'http://dash.test';

describe('dashboard sign-in', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-dash-'));
  const assetsDir = path.join(dir, 'assets');
  let store: Store;
  let now = new Date('2026-03-01T10:00:00Z');
  let key = '';
  const apps: FastifyInstance[] = [];

  const build = async (dashboard: AppDeps['dashboard']) => {
    const app = await createApp({
      store,
      // Nothing here renders: the engine and the browsers are never asked.
      engine: {} as AppDeps['engine'],
      browsers: {} as AppDeps['browsers'],
      limits: { requestBytes: 1 << 20, artifactBytes: 1 << 20 },
      netPolicy: createNetPolicy(),
      now: () => now,
      version: 'test',
      dashboard,
    });
    apps.push(app);
    return app;
  };
  const signIn = (app: FastifyInstance, key: string, address = '10.0.0.1') =>
    app.inject({ method: 'POST', url: '/dashboard/api/session', remoteAddress: address, headers: { host: 'dash.test', origin: ORIGIN, 'content-type': 'application/json' }, payload: { key } });

  before(async () => {
    fs.mkdirSync(assetsDir);
    const entries = { 'app.js': 'app-A.js', 'app.css': 'app-A.css', 'pdf.worker.mjs': 'w-A.mjs' };
    fs.writeFileSync(path.join(assetsDir, 'manifest.json'), JSON.stringify({ entries, files: Object.values(entries) }));
    fs.writeFileSync(path.join(assetsDir, 'app-A.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset');
    store = openStore({ dataDir: path.join(dir, 'data'), now: () => now });
    await store.createTeam('acme');
    key = (await store.createApiKey('acme')).key;
  });

  after(async () => {
    for (const app of apps) await app.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('wrong keys are rate-limited per address, on every app of the store; the right key then waits too; other addresses do not; after the window it works', async () => {
    const options = { assets: webAssets(assetsDir), signInAttempts: 3, signInWindowMs: 60_000 };
    const [app, other] = [await build(options), await build(options)];
    const address = '10.0.0.7';
    for (let i = 0; i < 3; i++) {
      // Spread over two apps (two nodes of one store): the attempts add up.
      const wrong = await signIn(i % 2 === 0 ? app : other, 'imp_wrong', address);
      assert.equal(wrong.statusCode, 401);
      assert.match(wrong.json().error, /not valid here/);
    }
    for (const node of [app, other]) {
      const limited = await signIn(node, key, address);
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'TOO_MANY_ATTEMPTS');
      assert.equal(limited.headers['retry-after'], '60');
    }
    assert.equal((await signIn(app, key, '10.0.0.2')).statusCode, 200, 'another address signs in');
    now = new Date(now.getTime() + 30_000);
    assert.equal((await signIn(other, key, address)).headers['retry-after'], '30', 'the window runs from its first failure');
    now = new Date(now.getTime() + 30_000);
    assert.equal((await signIn(other, key, address)).statusCode, 200, 'the window ended: the right key signs in');
    assert.equal((await signIn(app, 'imp_wrong', address)).statusCode, 401, 'a wrong key opens a new window, with its own attempts');
  });

  test('a session idle past its time is refused; used within it, it lives on', async () => {
    const app = await build({ assets: webAssets(assetsDir), sessionIdleMs: 60 * 60_000 });
    const answer = await signIn(app, key);
    assert.equal(answer.statusCode, 200);
    const cookie = String(answer.headers['set-cookie']).split(';')[0];
    const session = () => app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
    now = new Date(now.getTime() + 50 * 60_000);
    assert.equal((await session()).statusCode, 200);
    now = new Date(now.getTime() + 50 * 60_000);
    assert.equal((await session()).statusCode, 200, 'the last use restarted the clock');
    now = new Date(now.getTime() + 61 * 60_000);
    const idle = await session();
    assert.equal(idle.statusCode, 401);
    assert.match(idle.json().error, /Sign in again/);
  });

  test('unknown dashboard endpoints answer JSON 404s; asset names stay in the asset folder', async () => {
    const app = await build({ assets: webAssets(assetsDir) });
    const unknown = await app.inject({ method: 'GET', url: '/dashboard/api/nothing' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'ROUTE_NOT_FOUND');
    assert.equal((await app.inject({ method: 'GET', url: '/dashboard/assets/app-A.js' })).statusCode, 200);
    for (const name of ['..%2Fsecret.txt', '%2E%2E%2Fsecret.txt', 'manifest.json', 'missing.js']) {
      const answer = await app.inject({ method: 'GET', url: `/dashboard/assets/${name}` });
      assert.equal(answer.statusCode, 404, name);
      assert.doesNotMatch(answer.body, /not an asset/);
    }
    const page = await app.inject({ method: 'GET', url: '/dashboard/templates/x' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /\/dashboard\/assets\/app-A\.js/);
  });

  test('without the dashboard option nothing of it is served', async () => {
    const app = await build(undefined);
    for (const url of ['/', '/dashboard', '/dashboard/assets/app-A.js']) {
      const answer = await app.inject({ method: 'GET', url });
      assert.ok(answer.statusCode === 401 || answer.statusCode === 404, `${url}: ${answer.statusCode}`);
      assert.doesNotMatch(answer.body, /<html/);
    }
    assert.equal((await signIn(app, key)).statusCode, 401);
  });
  test('login codes that do not exist are limited per session and per address (issue 41, case 8): 429 with Retry-After, a real code refused too until the window ends', async () => {
    const app = await build({ assets: webAssets(assetsDir), signInAttempts: 3, signInWindowMs: 60_000 });
    const session = async (address: string) => {
      const answer = await signIn(app, key, address);
      assert.equal(answer.statusCode, 200, answer.body);
      return { cookie: String(answer.headers['set-cookie']).split(';')[0]!, csrf: answer.json().csrf as string };
    };
    const look = (code: string, address: string, who: { cookie: string }) =>
      app.inject({ method: 'GET', url: `/dashboard/api/login-codes/${code}`, remoteAddress: address, headers: { host: 'dash.test', cookie: who.cookie } });
    const approve = (code: string, address: string, who: { cookie: string; csrf: string }) =>
      app.inject({ method: 'POST', url: `/dashboard/api/login-codes/${code}/approve`, remoteAddress: address, headers: { host: 'dash.test', origin: ORIGIN, cookie: who.cookie, 'x-csrf-token': who.csrf } });
    const real = (await store.dashboard.createLoginCode('test machine', 600_000)).code;

    const first = await session('10.0.2.1');
    for (const wrong of ['AAAA-AAAA', 'BBBB-BBBB', 'not a code']) assert.equal((await look(wrong, '10.0.2.1', first)).statusCode, 404);
    const limited = await look('CCCC-CCCC', '10.0.2.1', first);
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(limited.json().code, 'TOO_MANY_ATTEMPTS');
    assert.match(limited.json().error, /Too many wrong login codes\. Try again in 60 s/);
    assert.equal(limited.headers['retry-after'], '60');
    assert.equal((await look(real, '10.0.2.1', first)).statusCode, 429, 'the real code waits too');
    assert.equal((await look(real, '10.0.2.2', first)).statusCode, 429, 'the same session from another address: its session is counted');
    assert.equal((await look(real, '10.0.2.1', await session('10.0.2.1'))).statusCode, 429, 'another session from the same address: its address is counted');
    const elsewhere = await look(real, '10.0.2.3', await session('10.0.2.3'));
    assert.equal(elsewhere.statusCode, 200, 'a fresh session from another address sees the real code');

    // Approving guesses count the same way.
    const approver = await session('10.0.2.4');
    for (const wrong of ['DDDD-DDDD', 'EEEE-EEEE', 'FFFF-FFFF']) assert.equal((await approve(wrong, '10.0.2.4', approver)).statusCode, 404);
    assert.equal((await approve(real, '10.0.2.4', approver)).statusCode, 429);

    now = new Date(now.getTime() + 61_000);
    const after = await approve(real, '10.0.2.4', approver);
    assert.equal(after.statusCode, 200, `after the window: ${after.body}`);
  });
});
