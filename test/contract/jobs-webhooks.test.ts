/**
 * Job webhooks (api.md Part D) from the real service (the installed package's `imprint serve`)
 * to receivers on 127.0.0.1, which the
 * operator allowed for the test (--allow-host 127.0.0.1): `job.completed` arrives signed as
 * the Standard Webhooks reference library verifies; a receiver that answers 500 twice gets
 * the third attempt, every attempt shown in the job's status; a webhook on a private address
 * is refused at submit when the operator has not allowed it, and nothing is stored or counted.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { describeReply, fixtureArtifact, startTestServices, type TestService } from './helpers/service.js';

interface Receiver {
  url: string;
  received: { headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

/** A receiver on 127.0.0.1 port 0 answering the nth request with statuses[n] (the last one after that). */
async function startReceiver(statuses: number[]): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  receivers.push(receiver);
  return receiver;
}

let service: TestService;
let strict: TestService;
let acme: { key: string };
let secret: string;

before(async () => {
  // Retries 50 ms apart and doubling (--webhook-retry-base 50ms): the schedule's shape, in a test's time.
  [service, strict] = await startTestServices([{ net: { allow: ['127.0.0.1'] }, webhooks: { retryBaseMs: 50, timeoutMs: 5_000 } }, {}]);
  acme = await service.team('acme');
  assert.equal((await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } })).status, 201);
  const made = await service.call('POST', '/api/webhook-secret', { key: acme.key, body: {} });
  assert.equal(made.status, 201, describeReply(made));
  secret = made.json().secret;
});

after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await Promise.all([service?.close(), strict?.close()]);
});

/**
 * Watches the receiver for a quiet period after the deliveries expected: a late duplicate
 * (a second worker, a retry after success) would arrive within it (retries here are 50 ms apart).
 */
async function noMoreDeliveries(receiver: Receiver, expected: number, quietMs = 1500) {
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  assert.equal(receiver.received.length, expected, `deliveries after a quiet period of ${quietMs} ms`);
}

const jobOf = async (id: string) => (await service.call('GET', `/api/jobs/${id}`, { key: acme.key })).json();

test('job.completed arrives once, signed with the team secret, carrying the job without its rows', { timeout: 120_000 }, async () => {
  const receiver = await startReceiver([204]);
  const submitted = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'greeting', rows: [{ name: 'Ada' }, { name: 'Bob' }], webhook: { url: receiver.url } } });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id;
  const job = await waitFor(() => jobOf(id), (seen) => seen.webhook?.attempts.length === 1, 'the delivery to be recorded');
  assert.equal(job.status, 'completed');
  assert.equal(receiver.received.length, 1);
  const [{ headers, body }] = receiver.received;
  const event = new Webhook(secret).verify(body, headers as Record<string, string>) as any;
  assert.equal(event.type, 'job.completed');
  assert.equal(event.timestamp, job.finishedAt);
  assert.equal(event.data.id, id);
  assert.deepEqual([event.data.status, event.data.total, event.data.done, event.data.failed], ['completed', 2, 2, 0]);
  assert.equal(event.data.statusUrl, job.statusUrl);
  assert.equal(event.data.rows, undefined);
  assert.equal(headers['webhook-id'], `msg_${id}_completed`);
  assert.equal(job.webhook.url, receiver.url);
  assert.equal(job.webhook.attempts[0].status, 204);
  assert.ok(!Number.isNaN(Date.parse(job.webhook.attempts[0].at)));
  await noMoreDeliveries(receiver, 1);
  // With a forged secret the same delivery does not verify.
  assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(body, headers as Record<string, string>));
});

test('a receiver that answers 500 twice gets a third attempt; every attempt is in the job status', { timeout: 120_000 }, async () => {
  const receiver = await startReceiver([500, 500, 200]);
  const submitted = await service.call('POST', '/api/jobs', {
    key: acme.key,
    body: { template: 'greeting', rows: [{ name: 'Ada' }, { name: 'Bob', explode: true }], webhook: { url: receiver.url } },
  });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id;
  const job = await waitFor(() => jobOf(id), (seen) => seen.webhook?.attempts.length === 3, 'three attempts');
  assert.equal(job.status, 'failed');
  assert.deepEqual(
    job.webhook.attempts.map((attempt: { status: number }) => attempt.status),
    [500, 500, 200],
  );
  assert.match(job.webhook.attempts[0].error, /500/);
  assert.equal(receiver.received.length, 3);
  // One event: the same id and body each time, each attempt verifiable.
  assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
  // Frozen: every attempt sent the same bytes (a receiver checking "same id, same body" takes
  // the retry); the attempts are in the job's status, not in the event.
  assert.deepEqual(receiver.received.map((r) => r.body), Array(3).fill(receiver.received[0].body));
  for (const { headers, body } of receiver.received) {
    const event = new Webhook(secret).verify(body, headers as Record<string, string>) as any;
    assert.equal(event.type, 'job.failed');
    assert.deepEqual(event.data.webhook, { url: receiver.url });
  }
  await noMoreDeliveries(receiver, 3);
  const times = job.webhook.attempts.map((attempt: { at: string }) => Date.parse(attempt.at));
  assert.ok(times[0] <= times[1] && times[1] <= times[2]);
});

test('a webhook on a private address is refused at submit when the operator has not allowed it; nothing is stored or counted', async () => {
  const team = await strict.team('closed');
  assert.equal((await strict.call('POST', '/api/templates', { key: team.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } })).status, 201);
  assert.equal((await strict.call('POST', '/api/webhook-secret', { key: team.key, body: {} })).status, 201);
  for (const url of ['http://127.0.0.1:9/hooks', 'http://10.1.2.3/hooks', 'http://[::1]:8080/']) {
    const refused = await strict.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'Ada' }], webhook: { url } } });
    assert.equal(refused.status, 403, `${url}: ${describeReply(refused)}`);
    assert.equal(refused.json().code, 'URL_DENIED');
  }
  const notHttp = await strict.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'Ada' }], webhook: { url: 'ftp://example.org/x' } } });
  assert.equal(notHttp.status, 400, describeReply(notHttp));
  assert.deepEqual((await strict.call('GET', '/api/jobs', { key: team.key })).json().jobs, []);
  assert.equal((await strict.call('GET', '/api/me', { key: team.key })).json().team.usedThisMonth, 0);
});

test('a team without a signing secret is told to make one before it can have webhooks', async () => {
  const team = await service.team('unsigned');
  assert.equal((await service.call('POST', '/api/templates', { key: team.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } })).status, 201);
  const receiver = await startReceiver([204]);
  const refused = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'Ada' }], webhook: { url: receiver.url } } });
  assert.equal(refused.status, 400, describeReply(refused));
  assert.match(refused.json().error, /webhook-secret/);
  // Without a webhook the same job runs.
  const plain = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'Ada' }] } });
  assert.equal(plain.status, 202);
  const job = await waitFor(async () => (await service.call('GET', `/api/jobs/${plain.json().id}`, { key: team.key })).json(), (seen) => FINAL.includes(seen.status), 'the job');
  assert.equal(job.webhook, undefined);
});
