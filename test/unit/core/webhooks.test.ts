/**
 * The pure parts of job webhooks: the secret's form, Standard Webhooks signing (checked with
 * the convention's reference library, as a receiver would check it), the event body, the
 * retry schedule, and the receiver code docs/webhooks.md gives.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { DEFAULT_WEBHOOK_RETRY_BASE_MS, hasWebhookRetryLeft, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '../../../src/core/webhooks/backoff.js';
import { buildWebhookEvent, webhookEventTypeFor, webhookMessageId } from '../../../src/core/webhooks/event.js';
import { generateWebhookSecret, WEBHOOK_SECRET_PATTERN, webhookSigningKey } from '../../../src/core/webhooks/secret.js';
import { signWebhook, webhookHeaders } from '../../../src/core/webhooks/sign.js';

describe('webhook secret', () => {
  test('whsec_ and the base64 of 32 random bytes, different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    assert.equal(secrets.size, 50);
    for (const secret of secrets) {
      assert.match(secret, WEBHOOK_SECRET_PATTERN);
      assert.equal(webhookSigningKey(secret).length, 32);
    }
  });

  test('a string that is not a secret cannot sign', () => {
    assert.throws(() => webhookSigningKey('not-a-secret'), /starts with "whsec_"/);
    assert.throws(() => webhookSigningKey('whsec_c2hvcnQ='), /at least 24 bytes/);
  });
});

describe('signing (Standard Webhooks)', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'job.completed', timestamp: '2026-11-26T10:00:00.000Z', data: { id: 'job_1', status: 'completed' } });

  test('the reference library verifies our headers and hands back the body', () => {
    const headers = webhookHeaders(secret, 'msg_job_1_completed', new Date(), body);
    assert.deepEqual(new Webhook(secret).verify(body, { ...headers }), JSON.parse(body));
  });

  test('our signature is the reference library\'s own, byte for byte', () => {
    const at = new Date('2026-11-26T10:00:00.000Z');
    const ours = webhookHeaders(secret, 'msg_1', at, body)['webhook-signature'];
    assert.equal(ours, new Webhook(secret).sign('msg_1', at, body));
    // And what the convention says in plain words: v1, base64 HMAC-SHA256 of "id.timestamp.body".
    const expected = createHmac('sha256', webhookSigningKey(secret)).update(`msg_1.${at.getTime() / 1000}.${body}`).digest('base64');
    assert.equal(ours, `v1,${expected}`);
  });

  test('a changed body, id, timestamp or secret fails verification', () => {
    const at = new Date();
    const headers = { ...webhookHeaders(secret, 'msg_1', at, body) };
    const verifyWith = (key: string, payload: string, h: Record<string, string>) => () => new Webhook(key).verify(payload, h);
    assert.throws(verifyWith(secret, body.replace('completed', 'failed'), headers), WebhookVerificationError);
    assert.throws(verifyWith(secret, body, { ...headers, 'webhook-id': 'msg_2' }), WebhookVerificationError);
    assert.throws(verifyWith(secret, body, { ...headers, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000) + 1) }), WebhookVerificationError);
    assert.throws(verifyWith(generateWebhookSecret(), body, headers), WebhookVerificationError);
  });

  test('the timestamp is in whole seconds', () => {
    const headers = webhookHeaders(secret, 'msg_1', new Date('2026-11-26T10:00:00.999Z'), body);
    assert.equal(headers['webhook-timestamp'], String(Date.UTC(2026, 10, 26, 10) / 1000));
    assert.equal(headers['webhook-signature'], signWebhook(secret, 'msg_1', Date.UTC(2026, 10, 26, 10) / 1000, body));
  });
});

describe('event body', () => {
  const job = { id: 'job_1', status: 'failed', total: 3, done: 2, failed: 1, rows: [{ row: 0, name: 'a.pdf', url: 'https://x/a' }] };

  test('type, timestamp and the job without its rows', () => {
    const event = buildWebhookEvent('job.failed', job, new Date('2026-11-26T10:00:00Z'));
    assert.deepEqual(event, { type: 'job.failed', timestamp: '2026-11-26T10:00:00.000Z', data: { id: 'job_1', status: 'failed', total: 3, done: 2, failed: 1 } });
    assert.ok('rows' in job, 'the job handed in is left as it was');
  });

  test('the event of each final status; none for a job still going', () => {
    assert.equal(webhookEventTypeFor('completed'), 'job.completed');
    assert.equal(webhookEventTypeFor('failed'), 'job.failed');
    assert.equal(webhookEventTypeFor('cancelled'), 'job.cancelled');
    assert.equal(webhookEventTypeFor('running'), undefined);
    assert.equal(webhookEventTypeFor('queued'), undefined);
  });

  test('message ids: one per job and event', () => {
    assert.equal(webhookMessageId('job_1', 'job.completed'), 'msg_job_1_completed');
    assert.notEqual(webhookMessageId('job_1', 'job.completed'), webhookMessageId('job_2', 'job.completed'));
    assert.notEqual(webhookMessageId('job_1', 'job.completed'), webhookMessageId('job_1', 'job.cancelled'));
  });
});

describe('retry schedule', () => {
  const retries = (random: () => number, baseMs?: number) =>
    Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => webhookRetryDelayMs(i + 1, { random, baseMs }));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  test('doubles from the base up to a cap of an hour (no jitter at the middle draw)', () => {
    assert.deepEqual(retries(() => 0.5), [10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600].map((s) => s * 1000));
    assert.equal(webhookRetryDelayMs(40, { random: () => 0.5 }), 3_600_000, 'stays at the cap');
  });

  test('goes on for at least an hour even when every jitter draw is the lowest', () => {
    const shortest = sum(retries(() => 0));
    assert.ok(shortest >= 60 * 60 * 1000, `${shortest} ms`);
    assert.ok(sum(retries(() => 0.999_999)) > shortest);
  });

  test('jitter spreads each delay from 0.75x to 1.25x', () => {
    assert.equal(webhookRetryDelayMs(1, { random: () => 0 }), 7_500);
    assert.equal(webhookRetryDelayMs(1, { random: () => 0.999_999 }), 12_500);
    const draws = new Set(Array.from({ length: 20 }, () => webhookRetryDelayMs(3)));
    assert.ok(draws.size > 1, 'Math.random by default');
  });

  test('a shorter base shortens the whole schedule, same shape', () => {
    assert.deepEqual(retries(() => 0.5, 10), retries(() => 0.5).map((ms) => ms / (DEFAULT_WEBHOOK_RETRY_BASE_MS / 10)));
  });

  test(`${WEBHOOK_MAX_ATTEMPTS} attempts in all`, () => {
    assert.equal(hasWebhookRetryLeft(1), true);
    assert.equal(hasWebhookRetryLeft(WEBHOOK_MAX_ATTEMPTS - 1), true);
    assert.equal(hasWebhookRetryLeft(WEBHOOK_MAX_ATTEMPTS), false);
    assert.throws(() => webhookRetryDelayMs(0), RangeError);
  });
});

describe("docs/webhooks.md's receiver code", () => {
  test('the node:crypto verifier in the docs accepts our deliveries and refuses tampered ones', async () => {
    const doc = fs.readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const block = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes("from 'node:crypto'"));
    assert.ok(block, 'the docs show a node:crypto verifier');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-webhook-doc-'));
    try {
      const file = path.join(folder, 'verify.mjs');
      fs.writeFileSync(file, block);
      const { verifyImprintWebhook } = (await import(pathToFileURL(file).href)) as {
        verifyImprintWebhook: (raw: string, headers: Record<string, string>, secrets: string[]) => unknown;
      };
      const secret = generateWebhookSecret();
      const previous = generateWebhookSecret();
      const body = JSON.stringify({ type: 'job.cancelled', timestamp: new Date().toISOString(), data: { id: 'job_9' } });
      const headers = { ...webhookHeaders(secret, 'msg_job_9_cancelled', new Date(), body) };
      assert.deepEqual(verifyImprintWebhook(body, headers, [previous, secret]), JSON.parse(body));
      assert.equal(verifyImprintWebhook(body.replace('job_9', 'job_8'), headers, [secret]), undefined);
      assert.equal(verifyImprintWebhook(body, headers, [previous]), undefined);
      const stale = { ...webhookHeaders(secret, 'msg_job_9_cancelled', new Date(Date.now() - 10 * 60_000), body) };
      assert.equal(verifyImprintWebhook(body, stale, [secret]), undefined, 'a replay from 10 minutes ago');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
