/**
 * One webhook attempt against real receivers on 127.0.0.1 (port 0), which the policy allows
 * for the test through its allow-list, as an operator would allow an internal receiver: the
 * signature verified with the Standard Webhooks reference library, failures as outcomes,
 * refusals made before any connection, redirects not followed, the checked address used;
 * and the same policy's early answer when a job is submitted (checkWebhookUrl).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import type { Resolver } from '../../src/core/net/resolver.js';
import { deliverWebhook, WEBHOOK_DESTINATION_DENIED } from '../../src/core/webhooks/deliver.js';
import { buildWebhookEvent } from '../../src/core/webhooks/event.js';
import { generateWebhookSecret } from '../../src/core/webhooks/secret.js';
import { checkWebhookUrl } from '../../src/core/webhooks/webhook-url.js';
import { ImprintError } from '../../src/core/errors.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

/** A receiver on 127.0.0.1 port 0 that answers each request as `answer` does (never, if it does not). */
async function startReceiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => unknown = (_req, res) => res.writeHead(204).end()): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  const receiver = { url: '', port: 0, received, connections: 0, close: async () => {} };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks/imprint`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  receivers.push(receiver);
  return receiver;
}

after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const secret = generateWebhookSecret();
const job = { id: 'job_7', status: 'completed', total: 2, done: 2, failed: 0, rows: [{ row: 0 }, { row: 1 }] };
const body = JSON.stringify(buildWebhookEvent('job.completed', job, new Date('2026-11-26T10:00:00Z')));
/** The operator allowed this one address: what a test receiver needs, nothing more. */
const allowLoopbackReceiver = createNetPolicy({ allow: ['127.0.0.1'] });
const attempt = (url: string, extra: Partial<Parameters<typeof deliverWebhook>[0]> = {}) =>
  deliverWebhook({ url, secret, body, messageId: 'msg_job_7_completed', netPolicy: allowLoopbackReceiver, timeoutMs: 5_000, ...extra });

describe('deliverWebhook', () => {
  test('POSTs the event with Standard Webhooks headers that the reference library verifies', async () => {
    const receiver = await startReceiver();
    const before = Date.now();
    const outcome = await attempt(receiver.url);
    assert.deepEqual({ ok: outcome.ok, status: outcome.status, error: outcome.error }, { ok: true, status: 204, error: undefined });
    assert.ok(Date.parse(outcome.at) >= before - 1000, outcome.at);

    assert.equal(receiver.received.length, 1);
    const [{ headers, body }] = receiver.received;
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['webhook-id'], 'msg_job_7_completed');
    assert.match(String(headers['webhook-timestamp']), /^\d{10}$/);
    assert.match(String(headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(secret).verify(body, headers as Record<string, string>);
    assert.deepEqual(verified, { type: 'job.completed', timestamp: '2026-11-26T10:00:00.000Z', data: { id: 'job_7', status: 'completed', total: 2, done: 2, failed: 0 } });
  });

  test('the same webhook-id on every attempt of one event; each attempt signs its own timestamp', async () => {
    const receiver = await startReceiver();
    await attempt(receiver.url, { now: () => new Date('2026-11-26T10:00:00Z') });
    await attempt(receiver.url, { now: () => new Date('2026-11-26T10:00:10Z') });
    const [first, second] = receiver.received;
    assert.equal(first.headers['webhook-id'], second.headers['webhook-id']);
    assert.equal(first.body, second.body);
    assert.notEqual(first.headers['webhook-timestamp'], second.headers['webhook-timestamp']);
    assert.notEqual(first.headers['webhook-signature'], second.headers['webhook-signature']);
  });

  test('a receiver answering 500 is a failed attempt with its status', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(200_000)));
    const outcome = await attempt(receiver.url);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 500);
    assert.match(outcome.error!, /answered 500/);
    assert.equal(receiver.received.length, 1);
  });

  test('a receiver that never answers: a timeout failure after timeoutMs', { timeout: 30_000 }, async () => {
    const receiver = await startReceiver(() => undefined);
    const started = Date.now();
    const outcome = await attempt(receiver.url, { timeoutMs: 300 });
    assert.ok(Date.now() - started >= 290, 'not before the deadline');
    assert.deepEqual({ ok: outcome.ok, status: outcome.status }, { ok: false, status: undefined });
    assert.match(outcome.error!, /no answer within 300 ms/);
    assert.equal(receiver.received.length, 1, 'the request did arrive');
  });

  test('a closed port is a failed attempt saying so', async () => {
    const receiver = await startReceiver();
    await receiver.close();
    const outcome = await attempt(receiver.url);
    assert.equal(outcome.ok, false);
    assert.match(outcome.error!, /connection refused/);
  });

  test('a private address is refused when the operator has not allowed it, before any connection', async () => {
    const receiver = await startReceiver();
    const publicOnly = createNetPolicy();
    const outcome = await attempt(receiver.url, { netPolicy: publicOnly });
    assert.deepEqual(outcome, { at: outcome.at, ok: false, error: WEBHOOK_DESTINATION_DENIED });
    // A name that resolves to it is refused alike.
    const table: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const byName = await attempt(`http://hooks.example.test:${receiver.port}/`, { netPolicy: publicOnly, resolve: table });
    assert.equal(byName.error, WEBHOOK_DESTINATION_DENIED);
    assert.equal(receiver.connections, 0, 'no connection reached the receiver');
    assert.equal(receiver.received.length, 0);
  });

  test('a redirect is not followed (its target was never checked): a failed attempt', async () => {
    const target = await startReceiver();
    const redirecting = await startReceiver((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end());
    const outcome = await attempt(redirecting.url);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 307);
    assert.match(outcome.error!, /redirect/);
    assert.equal(target.connections, 0, 'the redirect target got no connection');
  });

  test('connects to the address the check approved, not to a second lookup of the name (DNS rebinding)', async () => {
    const receiver = await startReceiver();
    let lookups = 0;
    // The first answer is the allowed receiver, every later one a metadata address.
    const rebinding: Resolver = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]);
    const outcome = await attempt(`http://hooks.example.test:${receiver.port}/hooks`, { resolve: rebinding });
    assert.equal(outcome.ok, true, outcome.error);
    assert.equal(lookups, 1, 'the name was looked up once, by the check');
    assert.equal(receiver.received[0].headers.host, `hooks.example.test:${receiver.port}`, 'the Host header keeps the name');
  });

  test('a URL that is not http(s) is a failed attempt, not an exception', async () => {
    const outcome = await attempt('ftp://127.0.0.1/hook');
    assert.equal(outcome.ok, false);
    assert.match(outcome.error!, /not an http\(s\) URL/);
  });
});

describe('checkWebhookUrl (at submission)', () => {
  test('an allowed URL comes back normalised', async () => {
    assert.equal(await checkWebhookUrl('HTTP://127.0.0.1:8080/hooks', allowLoopbackReceiver), 'http://127.0.0.1:8080/hooks');
  });
  test('a private address the operator did not allow: URL_DENIED (403), saying nothing of the destination', async () => {
    await assert.rejects(checkWebhookUrl('http://127.0.0.1:8080/hooks', createNetPolicy()), (error: unknown) => {
      assert.ok(error instanceof ImprintError);
      assert.equal(error.code, 'URL_DENIED');
      assert.equal(error.httpStatus, 403);
      assert.doesNotMatch(error.message, /loopback|127/);
      return true;
    });
  });
  test('not an http(s) URL, or not a string: INVALID_INPUT (400) naming webhook.url', async () => {
    for (const bad of ['ftp://example.org/x', 'not a url', 42]) {
      await assert.rejects(checkWebhookUrl(bad, createNetPolicy()), (error: unknown) => error instanceof ImprintError && error.code === 'INVALID_INPUT' && /webhook\.url/.test(error.message));
    }
  });
});
