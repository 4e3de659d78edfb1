/**
 * Issue 5, outbound policy at the service's door: A2's `url` is judged by the operator's
 * network policy before any browser work. A canary server on loopback shows that a refused
 * url never reached it, and that the operator's --allow-private / --allow-host do let the
 * same url through (so the refusals can fail); --no-public closes everything but the
 * allow-list, and refuses an unlisted name without looking it up.
 *
 * The operator's settings run the installed package's `imprint serve` with those flags. The
 * default policy's block alone runs the service in this process (in-process-service.ts): its
 * refusals are about names that resolve to private addresses (canary.test -> 127.0.0.1, a name
 * with one public and one loopback address), and no DNS table of the test's reaches a child
 * process without root. Its address spellings need no table, but are judged by the same code in
 * the child's --no-public and --allow-host blocks below.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DENIED_DESTINATION_MESSAGE } from '../../src/core/net/url-policy.js';
import type { Resolver } from '../../src/core/net/resolver.js';
import type { BrowserPool } from '../../src/core/render/pool.js';
import { pdfText } from '../helpers/pdf.js';
import { CANARY_TEXT, startCanary, type Canary } from './helpers/canary.js';
import { describeReply, searchChromium, startTestService, startTestServices, type LogEntry, type Reply, type TestService } from './helpers/service.js';
import { startInProcessService } from './helpers/in-process-service.js';
import { freePort } from '../helpers/free-port.js';

/** The in-process default service's browser (the children launch their own). */
let browsers: BrowserPool;
let canary: Canary;
let closedPort: number;

// The default service's DNS: names under .test exist only here, and no lookup leaves the machine.
const ZONE: Record<string, string[]> = {
  'canary.test': ['127.0.0.1'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'intranet.test': ['10.20.30.40'],
  'metadata-alias.test': ['169.254.169.254'],
};
const resolve: Resolver = async (name) => {
  const addresses = ZONE[name.toLowerCase().replace(/\.$/, '')];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
};

const generate = (service: TestService, key: string, body: unknown) => service.call('POST', '/api/generate', { key, body });

function expectRefusal(reply: Reply, status: 400 | 403): string {
  assert.equal(reply.status, status, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId']);
  assert.equal(body.code, status === 403 ? 'URL_DENIED' : 'INVALID_INPUT');
  return body.error;
}

async function expectCanaryPage(reply: Reply) {
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(pdfText(reply.body), new RegExp(CANARY_TEXT));
}

/** After every attack the service still renders. */
async function stillRenders(service: TestService, key: string) {
  const reply = await generate(service, key, { html: '<h1>Still serving</h1>' });
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(pdfText(reply.body), /Still serving/);
}

before(async () => {
  browsers = searchChromium();
  canary = await startCanary();
  closedPort = await freePort();
});

after(async () => {
  await browsers?.close();
  await canary?.close();
});

describe('default: public addresses only', () => {
  let service: TestService;
  let team: { key: string };

  before(async () => {
    // In process: the DNS table above is why (see the top of the file).
    service = await startInProcessService({ browsers, resolve });
    team = await service.team('default-policy');
  });
  after(() => service?.close());

  // Every way of writing "this machine", a private network or a metadata service.
  const denied = () => [
    `${canary.url}/page`,
    `http://localhost:${canary.port}/`,
    `http://LOCALHOST.:${canary.port}/`,
    `http://app.localhost:${canary.port}/`,
    `http://127.1:${canary.port}/`,
    `http://2130706433:${canary.port}/`,
    `http://0x7f000001:${canary.port}/`,
    `http://0177.0.0.1:${canary.port}/`,
    `http://[::1]:${canary.port}/`,
    `http://[::ffff:127.0.0.1]:${canary.port}/`,
    `http://[::ffff:7f00:1]:${canary.port}/`,
    `http://user:pass@127.0.0.1:${canary.port}/`,
    `http://example.org@127.0.0.1:${canary.port}/`,
    `http://0.0.0.0:${canary.port}/`,
    `http://canary.test:${canary.port}/`,
    `http://mixed.test:${canary.port}/`,
    `https://127.0.0.1:${canary.port}/`,
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata-alias.test/',
    'http://intranet.test/',
    `http://127.0.0.1:${closedPort}/`,
    'http://no-such-host.test/',
  ];

  test('403 with one message for every denied destination, and nothing reached the canary', async () => {
    for (const url of denied()) {
      const message = expectRefusal(await generate(service, team.key, { url }), 403);
      assert.equal(message, DENIED_DESTINATION_MESSAGE, url);
      // With html too: the html is not rendered into a page at a denied url.
      expectRefusal(await generate(service, team.key, { url, html: '<h1>injected</h1>' }), 403);
    }
    assert.deepEqual(canary.requests, []);
    assert.equal(canary.connections(), 0, 'not even a connection');
  });

  test('the answers reveal nothing: an open port, a closed port, metadata and an unknown name look the same', async () => {
    const urls = [`${canary.url}/`, `http://127.0.0.1:${closedPort}/`, 'http://169.254.169.254/', 'http://no-such-host.test/'];
    const replies = await Promise.all(urls.map((url) => generate(service, team.key, { url })));
    // Alike but for each answer's own request id (a UUID: the same length every time).
    const shapes = replies.map((r) => ({ status: r.status, body: r.text().replace(/"requestId":"[^"]+"/, '"requestId":"(id)"'), length: r.headers['content-length'] }));
    for (const shape of shapes) assert.deepEqual(shape, shapes[0]);
  });

  test("the reason is in the operator's log, not in the answer", async () => {
    expectRefusal(await generate(service, team.key, { url: `http://[::1]:${canary.port}/` }), 403);
    const logged = service.logs.map((line) => JSON.parse(line)).filter((entry) => entry.status === 403 && typeof entry.details === 'string');
    assert.ok(logged.some((entry) => /loopback/.test(entry.details)), 'the log says why');
  });

  test('400 for every scheme that is not http(s)', async () => {
    for (const url of ['file:///etc/passwd', 'FILE:///etc/passwd', 'file://localhost/etc/passwd', 'view-source:http://127.0.0.1/', 'chrome://version', 'data:text/html,<h1>x</h1>', 'javascript:alert(1)', 'ftp://127.0.0.1/', 'ws://127.0.0.1/', 'about:blank', 'blob:https://example.org/x']) {
      const message = expectRefusal(await generate(service, team.key, { url }), 400);
      assert.match(message, /^Invalid url .*only http and https/, url);
    }
    expectRefusal(await generate(service, team.key, { url: 'not a url' }), 400);
    expectRefusal(await generate(service, team.key, { url: 42 }), 400);
  });

  test('a refused url renders nothing and counts nothing; the service still renders', async () => {
    const teamRow = (await service.operator.getTeam('default-policy'))!;
    assert.equal(await service.operator.usage(teamRow.id), 0);
    await stillRenders(service, team.key);
    assert.equal(await service.operator.usage(teamRow.id), 1);
  });
});

describe('--allow-private: a trusted internal deployment', () => {
  let service: TestService;
  let team: { key: string };

  before(async () => {
    service = await startTestService({ net: { allowPrivate: true } });
    team = await service.team('internal');
  });
  after(() => service?.close());

  test('the loopback canary is rendered, and it saw the request', async () => {
    const before_ = canary.requests.length;
    await expectCanaryPage(await generate(service, team.key, { url: `${canary.url}/allowed-private` }));
    assert.ok(canary.requests.slice(before_).some((r) => r.startsWith('GET /allowed-private')), canary.requests.join('\n'));
  });

  test('localhost by name too', async () => {
    await expectCanaryPage(await generate(service, team.key, { url: `http://localhost:${canary.port}/by-name` }));
    assert.ok(canary.requests.some((r) => r.startsWith('GET /by-name')));
  });

  test('cloud metadata stays closed', async () => {
    assert.equal(expectRefusal(await generate(service, team.key, { url: 'http://169.254.169.254/latest/meta-data/' }), 403), DENIED_DESTINATION_MESSAGE);
    assert.equal(expectRefusal(await generate(service, team.key, { url: 'http://metadata.google.internal/' }), 403), DENIED_DESTINATION_MESSAGE);
    await stillRenders(service, team.key);
  });

  test('file: stays a 400', async () => {
    expectRefusal(await generate(service, team.key, { url: 'file:///etc/passwd' }), 400);
  });
});

describe('--allow-host: an address, a range, a name', () => {
  let byAddress: TestService;
  let byRange: TestService;
  let byName: TestService;
  const keys: Record<string, string> = {};

  before(async () => {
    [byAddress, byRange, byName] = await startTestServices([{ net: { allow: ['127.0.0.1'] } }, { net: { allow: ['127.0.0.0/8'] } }, { net: { allow: ['localhost'] } }]);
    keys.address = (await byAddress.team('by-address')).key;
    keys.range = (await byRange.team('by-range')).key;
    keys.name = (await byName.team('by-name')).key;
  });
  after(async () => {
    await Promise.all([byAddress?.close(), byRange?.close(), byName?.close()]);
  });

  test('an allowed address: rendered; its neighbours and other names for it: refused', async () => {
    await expectCanaryPage(await generate(byAddress, keys.address, { url: `${canary.url}/allowed-address` }));
    assert.ok(canary.requests.some((r) => r.startsWith('GET /allowed-address')));
    const reached = canary.requests.length;
    for (const url of [`http://127.0.0.2:${canary.port}/`, `http://localhost:${canary.port}/`, `http://[::1]:${canary.port}/`, 'http://10.0.0.1/']) {
      expectRefusal(await generate(byAddress, keys.address, { url }), 403);
    }
    assert.equal(canary.requests.length, reached);
  });

  test('an allowed range: any address in it, however written; nothing outside it', async () => {
    await expectCanaryPage(await generate(byRange, keys.range, { url: `http://127.1:${canary.port}/allowed-range` }));
    assert.ok(canary.requests.some((r) => r.startsWith('GET /allowed-range')));
    expectRefusal(await generate(byRange, keys.range, { url: 'http://192.168.1.1/' }), 403);
    expectRefusal(await generate(byRange, keys.range, { url: 'http://169.254.169.254/' }), 403);
  });

  test('an allowed name: that name; the address it stands for is not opened by it', async () => {
    await expectCanaryPage(await generate(byName, keys.name, { url: `http://localhost:${canary.port}/allowed-name` }));
    assert.ok(canary.requests.some((r) => r.startsWith('GET /allowed-name')));
    expectRefusal(await generate(byName, keys.name, { url: `${canary.url}/by-address` }), 403);
    assert.ok(!canary.requests.some((r) => r.startsWith('GET /by-address')));
    await stillRenders(byName, keys.name);
  });
});

/** The operator log's reason for the refusal of one request (`details`, never sent to the caller). */
async function refusalReason(service: TestService, reply: Reply): Promise<string> {
  const id = String(reply.headers['x-request-id']);
  const entry: LogEntry = await service.waitForLog((line) => line.reqId === id && line.msg === 'request refused', `the refusal of request ${id}`);
  return String(entry.details);
}

describe('--no-public: the allow-list and nothing else', () => {
  let closed: TestService;
  let open: TestService;
  let closedKey: string;
  let openKey: string;
  // RFC 6761: .invalid never resolves, so a lookup of it could only fail, and say so.
  const unlisted = ['http://example.org/', 'http://nothing.invalid/', `http://exfiltrate-${Date.now()}.example.com/x`];

  before(async () => {
    [closed, open] = await startTestServices([{ net: { allowPublic: false, allow: ['127.0.0.1'] } }, { net: { allow: ['127.0.0.1'] } }]);
    closedKey = (await closed.team('no-public')).key;
    openKey = (await open.team('public-open')).key;
  });
  after(async () => {
    await Promise.all([closed?.close(), open?.close()]);
  });

  test('a public name is refused without being looked up: the log says it is not on the allow-list', async () => {
    for (const url of unlisted) {
      const reply = await generate(closed, closedKey, { url });
      assert.equal(expectRefusal(reply, 403), DENIED_DESTINATION_MESSAGE, url);
      const host = new URL(url).hostname;
      assert.equal(await refusalReason(closed, reply), `not-allow-listed: ${host} is not on the allow-list`, url);
    }
  });

  test('the control: without --no-public the same names are looked up (the reason is the lookup\'s)', async () => {
    const reply = await generate(open, openKey, { url: 'http://nothing.invalid/' });
    expectRefusal(reply, 403);
    assert.match(await refusalReason(open, reply), /^unresolvable: nothing\.invalid did not resolve/);
  });

  test('a public address is refused, written in any form; loopback that is not allow-listed too', async () => {
    for (const url of ['http://93.184.216.34/', 'http://1.1.1.1/', 'http://[2606:4700:4700::1111]/', 'http://16843009/', `http://localhost:${canary.port}/`, `http://127.0.0.2:${canary.port}/`]) {
      assert.equal(expectRefusal(await generate(closed, closedKey, { url }), 403), DENIED_DESTINATION_MESSAGE, url);
    }
  });

  test('the allow-listed address is rendered, and the canary saw it', async () => {
    await expectCanaryPage(await generate(closed, closedKey, { url: `${canary.url}/no-public-allowed` }));
    assert.ok(canary.requests.some((r) => r.startsWith('GET /no-public-allowed')), canary.requests.join('\n'));
    await stillRenders(closed, closedKey);
  });
});
