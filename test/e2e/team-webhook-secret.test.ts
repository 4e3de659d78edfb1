/**
 * `imprint team webhook-secret <team>`, the real CLI on a temporary data folder: the secret
 * alone on stdout (so `SECRET=$(...)` works), how to use it on stderr, the store signing with
 * exactly what was printed, a second run replacing it, an unknown team refused by name.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { openStore } from '../../src/core/store/index.js';
import { webhookHeaders } from '../../src/core/webhooks/sign.js';
import { runCli, tempDir } from '../helpers/cli.js';

const folder = tempDir('imprint-webhook-secret-');
const dataDir = path.join(folder, 'data');

after(() => fs.rmSync(folder, { recursive: true, force: true }));

/** What the store holds for a team, read by the operator's own connection. */
async function storedSecret(team: string): Promise<string | undefined> {
  const store = openStore({ dataDir });
  try {
    return await store.getWebhookSecret((await store.getTeam(team))!.id);
  } finally {
    await store.close();
  }
}

test('prints a new secret once, alone on stdout; the store signs with it; a second run replaces it', async () => {
  const created = await runCli(['--data-dir', dataDir, 'team', 'create', 'acme']);
  assert.equal(created.code, 0, created.describe());

  const first = await runCli(['--data-dir', dataDir, 'team', 'webhook-secret', 'acme']);
  assert.equal(first.code, 0, first.describe());
  const secret = first.stdout.toString();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=\n$/, 'the secret and a newline, nothing else');
  assert.match(first.stderr, /shown only this once/);
  assert.match(first.stderr, /webhook-signature/);
  assert.equal(await storedSecret('acme'), secret.trim());

  // A receiver holding the printed secret verifies what the service signs.
  const body = '{"type":"job.completed"}';
  const headers = webhookHeaders((await storedSecret('acme'))!, 'msg_1', new Date(), body);
  assert.deepEqual(new Webhook(secret.trim()).verify(body, { ...headers }), { type: 'job.completed' });

  const second = await runCli(['--data-dir', dataDir, 'team', 'webhook-secret', 'acme']);
  assert.equal(second.code, 0, second.describe());
  assert.notEqual(second.stdout.toString(), secret);
  assert.equal(await storedSecret('acme'), second.stdout.toString().trim());
});

test('an unknown team: an error naming it, nothing on stdout', async () => {
  const result = await runCli(['--data-dir', dataDir, 'team', 'webhook-secret', 'nobody']);
  assert.notEqual(result.code, 0, result.describe());
  assert.equal(result.stdout.toString(), '');
  assert.match(result.stderr, /No team named "nobody"/);
});

test('--help lists the command', async () => {
  const help = await runCli(['team', '--help']);
  assert.equal(help.code, 0, help.describe());
  assert.match(help.stdout.toString(), /webhook-secret <name>/);
});
