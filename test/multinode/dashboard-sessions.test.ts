/**
 * The dashboard on two `imprint serve` nodes that share PostgreSQL and S3, behind nginx (the
 * configuration of docs/deploy.md): a session made by one node serves on the other, a login
 * code made through one is approved through the other and claimed through nginx, and a
 * sign-out through one ends the session everywhere. The nodes trust nginx by its address
 * (--trust-proxy 127.0.0.1), so a request that reached nginx over https (X-Forwarded-Proto) gets
 * a Secure cookie, and the sign-in limit counts the client address nginx passes on
 * (X-Forwarded-For, set by the docs' configuration): an address refused through one node is
 * refused through the other and through nginx, and a client that writes its own
 * X-Forwarded-For is still counted by its real address (issue 41, case 2). Clients of their own
 * address connect from other loopback addresses (127.0.0.x), as separate machines would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '../helpers/jobs.js';
import { Agent, request } from 'undici';
import { call, startFleet, type Fleet } from '../helpers/fleet.js';
import { startNginx, type Nginx } from '../helpers/nginx.js';
import { describeReply, fixtureArtifact } from '../contract/helpers/service.js';

/** The sign-in limit's window on these nodes: long enough to use up the attempts on a busy machine, short enough to wait out. */
const SIGN_IN_WINDOW_MS = 8000;

let fleet: Fleet;
let nginx: Nginx;
let key: string;

before(async () => {
  // nginx connects to the nodes from 127.0.0.1; clients connect from other 127.0.0.x addresses.
  fleet = await startFleet({ nodes: 2, args: ['--trust-proxy', '127.0.0.1'], env: { IMPRINT_TEST_SIGN_IN_WINDOW_MS: String(SIGN_IN_WINDOW_MS) } });
  nginx = await startNginx({ nodes: fleet.nodes.map((node) => `127.0.0.1:${node.port}`) });
  key = await fleet.team('sessions', 100);
  const published = await call(fleet.nodes[0].url, 'POST', '/api/templates', key, { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') });
  assert.equal(published.status, 201, describeReply(published));
});

const clients = new Map<string, Agent>();
/** Connections from `address` (a loopback address of its own): a client machine of that address. */
const from = (address: string) => {
  let agent = clients.get(address);
  if (!agent) clients.set(address, (agent = new Agent({ localAddress: address })));
  return agent;
};

after(async () => {
  await Promise.all([...clients.values()].map((agent) => agent.close()));
  await nginx?.stop();
  await fleet?.close();
});

/** A dashboard request as the browser sends it to `base`: its own origin, the session cookie, the CSRF token. */
async function dashboard(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, session?: { cookie: string; csrf: string }, body?: unknown, headers: Record<string, string> = {}, client?: string) {
  const answer = await request(`${base}${path}`, {
    method,
    ...(client ? { dispatcher: from(client) } : {}),
    headers: {
      origin: base,
      ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, headers: answer.headers, json: () => JSON.parse(text), text };
}

async function signIn(base: string, headers: Record<string, string> = {}) {
  const answer = await dashboard(base, 'POST', '/dashboard/api/session', undefined, { key }, headers);
  assert.equal(answer.status, 200, answer.text);
  const setCookie = String(answer.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0], csrf: answer.json().csrf as string, setCookie };
}

test('a session made by node A serves on node B, and its sign-out through B ends it on A', { timeout: 120_000 }, async () => {
  const [a, b] = fleet.nodes;
  const session = await signIn(a.url);
  const listed = await dashboard(b.url, 'GET', '/dashboard/api/templates', session);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json().templates.map((t: { id: string }) => t.id), ['greeting']);
  // A change through B, checked against B's own origin and the session's token.
  const made = await dashboard(b.url, 'POST', '/dashboard/api/keys', session, {});
  assert.equal(made.status, 201, made.text);
  const keyOnA = await call(a.url, 'GET', '/api/templates', made.json().key);
  assert.equal(keyOnA.status, 200);

  const out = await dashboard(b.url, 'DELETE', '/dashboard/api/session', session);
  assert.equal(out.status, 200, out.text);
  assert.equal((await dashboard(a.url, 'GET', '/dashboard/api/session', session)).status, 401);
});

test('through nginx: every request of a session is served, whichever node takes it', { timeout: 120_000 }, async () => {
  const session = await signIn(nginx.url);
  const answers = await Promise.all(Array.from({ length: 12 }, () => dashboard(nginx.url, 'GET', '/dashboard/api/templates', session)));
  assert.deepEqual(answers.map((answer) => answer.status), Array(12).fill(200));
  assert.equal((await dashboard(nginx.url, 'POST', '/dashboard/api/webhook-secret', session, {})).status, 200);
});

test('a login code made through A, approved through B, is claimed once through nginx', { timeout: 120_000 }, async () => {
  const [a, b] = fleet.nodes;
  const asked = await dashboard(a.url, 'POST', '/dashboard/login-codes', undefined, { machine: 'ci@runner' });
  assert.equal(asked.status, 201, asked.text);
  const { code, pollToken } = asked.json() as { code: string; pollToken: string };
  const pending = await dashboard(nginx.url, 'POST', '/dashboard/login-codes/poll', undefined, { pollToken });
  assert.deepEqual(pending.json(), { status: 'pending' });

  const session = await signIn(b.url);
  const shown = await dashboard(b.url, 'GET', `/dashboard/api/login-codes/${code}`, session);
  assert.equal(shown.json().machine, 'ci@runner');
  assert.equal((await dashboard(b.url, 'POST', `/dashboard/api/login-codes/${code}/approve`, session, {})).status, 200);

  const claimed = await dashboard(nginx.url, 'POST', '/dashboard/login-codes/poll', undefined, { pollToken });
  assert.equal(claimed.json().status, 'approved', claimed.text);
  assert.equal(claimed.json().team, 'sessions');
  assert.equal((await call(a.url, 'GET', '/api/templates', claimed.json().key)).status, 200);
  // Once: the next poll, on either node, gets nothing more.
  assert.deepEqual((await dashboard(b.url, 'POST', '/dashboard/login-codes/poll', undefined, { pollToken })).json(), { status: 'expired' });
});

test('with --trust-proxy, a request that came over https gets a Secure cookie', { timeout: 60_000 }, async () => {
  const [a] = fleet.nodes;
  // What nginx adds for a client that reached it over https; the browser's Origin is then https too.
  const viaHttps = await dashboard(a.url, 'POST', '/dashboard/api/session', undefined, { key }, { 'x-forwarded-proto': 'https', origin: a.url.replace('http:', 'https:') });
  assert.equal(viaHttps.status, 200, viaHttps.text);
  assert.match(String(viaHttps.headers['set-cookie']), /; Secure/);
  const plain = await signIn(a.url);
  assert.doesNotMatch(plain.setCookie, /Secure/);
});

test('wrong keys through node A until refused: then refused on node B and through nginx too; after the window the right key signs in', { timeout: 120_000 }, async () => {
  const [a, b] = fleet.nodes;
  // A client of its own address, so the other tests' sign-ins are not its.
  const client = '127.0.0.23';
  const attempt = (base: string, tried: string) => dashboard(base, 'POST', '/dashboard/api/session', undefined, { key: tried }, {}, client);
  const wrong: number[] = [];
  for (;;) {
    const answer = await attempt(a.url, 'imp_wrong');
    wrong.push(answer.status);
    if (answer.status !== 401) break;
    assert.ok(wrong.length <= 30, `node A never refused: ${wrong.join(', ')}`);
  }
  assert.equal(wrong.at(-1), 429, `node A refused the address: ${wrong.join(', ')}`);
  assert.equal(wrong.length, 11, 'the default 10 wrong keys, then refused');
  for (const base of [b.url, nginx.url]) {
    const refused = await attempt(base, key);
    assert.equal(refused.status, 429, `the right key is refused through ${base === b.url ? 'node B' : 'nginx'} too: ${refused.text}`);
    assert.equal(refused.json().code, 'TOO_MANY_ATTEMPTS');
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= SIGN_IN_WINDOW_MS / 1000);
  }
  assert.equal((await signIn(b.url)).cookie.length > 0, true, 'another address signs in on B meanwhile');
  // The window ends: the right key then signs in (a refused attempt uses up nothing).
  const after = await waitFor(() => attempt(b.url, key), (answer) => answer.status !== 429, 'the sign-in window to end', 60_000);
  assert.equal(after.status, 200, after.text);
  assert.match(String(after.headers['set-cookie']), /HttpOnly/);
});

test("a client that writes its own X-Forwarded-For is counted by its real address: through nginx, and straight to a node that does not trust it", { timeout: 120_000 }, async () => {
  const client = '127.0.0.31';
  // A new address every time, as an attacker would write to dodge the limit.
  const spoofed = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i % 250}` });
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await dashboard(nginx.url, 'POST', '/dashboard/api/session', undefined, { key: 'imp_wrong' }, spoofed(i), client)).status);
  assert.deepEqual(statuses, [...Array(10).fill(401), 429], 'the 11th wrong key through nginx is refused, whatever the header said');
  const direct = await dashboard(fleet.nodes[1].url, 'POST', '/dashboard/api/session', undefined, { key }, spoofed(99), client);
  assert.equal(direct.status, 429, `straight to node B, its header not believed: ${direct.text}`);
  const neighbour = await dashboard(nginx.url, 'POST', '/dashboard/api/session', undefined, { key }, spoofed(0), '127.0.0.32');
  assert.equal(neighbour.status, 200, `another client through nginx is not refused: ${neighbour.text}`);
});
