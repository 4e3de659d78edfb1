/**
 * `POST /api/webhook-secret` against the real service (startServer on 127.0.0.1 port 0, a
 * real SQLite data folder): the caller's team gets a new secret, shown once, that signs what
 * a Standard Webhooks receiver verifies; the previous one is replaced; the route's answers are
 * in the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { webhookHeaders } from '../../src/core/webhooks/sign.js';
import { describeReply, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let acme: { name: string; key: string };
let other: { name: string; key: string };

before(async () => {
  service = await startTestService();
  acme = await service.team('acme');
  other = await service.team('other');
});

after(async () => {
  await service?.close();
});

const teamId = async (name: string) => (await service.operator.getTeam(name))!.id;

describe('POST /api/webhook-secret', () => {
  test("201 with a new whsec_ secret for the caller's team, not cached, replacing the previous one", async () => {
    const first = await service.call('POST', '/api/webhook-secret', { key: acme.key });
    assert.equal(first.status, 201, describeReply(first));
    assert.equal(first.headers['cache-control'], 'no-store');
    const { secret } = first.json<{ secret: string }>();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(Object.keys(first.json()), ['secret']);
    assert.equal(await service.operator.getWebhookSecret(await teamId('acme')), secret, 'the store signs with what the caller was shown');
    assert.equal(await service.operator.getWebhookSecret(await teamId('other')), undefined, 'no other team is touched');

    // With a JSON body too (some clients always send one).
    const second = await service.call('POST', '/api/webhook-secret', { key: acme.key, body: {} });
    assert.equal(second.status, 201, describeReply(second));
    const replaced = second.json<{ secret: string }>().secret;
    assert.notEqual(replaced, secret);
    assert.equal(await service.operator.getWebhookSecret(await teamId('acme')), replaced);
  });

  test('the secret works with the Standard Webhooks reference library', async () => {
    const { secret } = (await service.call('POST', '/api/webhook-secret', { key: other.key })).json<{ secret: string }>();
    const stored = (await service.operator.getWebhookSecret(await teamId('other')))!;
    const body = JSON.stringify({ type: 'job.completed', timestamp: new Date().toISOString(), data: { id: 'job_1' } });
    const headers = webhookHeaders(stored, 'msg_job_1_completed', new Date(), body);
    assert.deepEqual(new Webhook(secret).verify(body, { ...headers }), JSON.parse(body));
  });

  test('401 without a key, and nothing is made', async () => {
    const before = await service.operator.getWebhookSecret(await teamId('acme'));
    const reply = await service.call('POST', '/api/webhook-secret');
    assert.equal(reply.status, 401, describeReply(reply));
    assert.match(String(reply.headers['www-authenticate']), /^Bearer/);
    assert.equal(await service.operator.getWebhookSecret(await teamId('acme')), before);
  });

  test('415 for a body that is not JSON', async () => {
    const reply = await service.call('POST', '/api/webhook-secret', { key: acme.key, rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(reply.status, 415, describeReply(reply));
  });

  test('the OpenAPI document lists it with its 201 answer', async () => {
    const doc = (await service.call('GET', '/openapi.json', { key: acme.key })).json();
    const operation = doc.paths['/api/webhook-secret'].post;
    assert.deepEqual(operation.responses['201'].content['application/json'].schema.required, ['secret']);
    assert.ok(operation.responses['401']);
  });
});
