/**
 * https webhooks over the pinned connection: the TCP connection goes to the checked address,
 * and TLS runs over it with the URL's host name (SNI and certificate check), so pinning the
 * address does not weaken the certificate check. The receiver's certificate is made for the
 * test with openssl, for the name hooks.example.test only.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import { createDestinationCheck, type AllowedAddress } from '../../src/core/net/destination-check.js';
import { deliverWebhook } from '../../src/core/webhooks/deliver.js';
import { pinnedAgent } from '../../src/core/webhooks/pinned-agent.js';
import { generateWebhookSecret } from '../../src/core/webhooks/secret.js';

const NAME = 'hooks.example.test';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-webhook-tls-'));
let cert: Buffer;
let server: https.Server;
let port: number;
const serverNames: (string | false | null)[] = [];

before(async () => {
  const keyFile = path.join(folder, 'key.pem');
  const certFile = path.join(folder, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', `/CN=${NAME}`, '-addext', `subjectAltName=DNS:${NAME}`, '-keyout', keyFile, '-out', certFile], { stdio: 'pipe' });
  cert = fs.readFileSync(certFile);
  server = https.createServer({ key: fs.readFileSync(keyFile), cert }, (req, res) => {
    serverNames.push((req.socket as TLSSocket).servername);
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(folder, { recursive: true, force: true });
});

const policy = createNetPolicy({ allow: ['127.0.0.1'] });
const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];

async function checkedAddresses(): Promise<readonly AllowedAddress[]> {
  const decision = await createDestinationCheck(policy, resolve)(NAME);
  assert.ok(decision.allowed);
  return decision.addresses;
}

test('TLS over the pinned address, with the name as SNI; the certificate checked against the name', async () => {
  const url = new URL(`https://${NAME}:${port}/hooks`);
  const agent = pinnedAgent({ url, addresses: await checkedAddresses(), connectTimeoutMs: 5_000, ca: cert });
  try {
    const answer = await request(url, { method: 'POST', dispatcher: agent, body: '{}' });
    assert.equal(answer.statusCode, 200);
    assert.equal(await answer.body.text(), 'ok');
    assert.equal(serverNames.at(-1), NAME);
  } finally {
    await agent.destroy();
  }
});

test('a trusted certificate for another name is refused: the name, not the address, is what is checked', async () => {
  const url = new URL(`https://other.example.test:${port}/hooks`);
  const agent = pinnedAgent({ url, addresses: await checkedAddresses(), connectTimeoutMs: 5_000, ca: cert });
  try {
    await assert.rejects(request(url, { method: 'POST', dispatcher: agent, body: '{}' }), (error: NodeJS.ErrnoException) => error.code === 'ERR_TLS_CERT_ALTNAME_INVALID');
  } finally {
    await agent.destroy();
  }
});

test("a certificate the system does not trust fails the attempt (the check is on, the address pinned or not)", async () => {
  const outcome = await deliverWebhook({
    url: `https://${NAME}:${port}/hooks`,
    secret: generateWebhookSecret(),
    body: JSON.stringify({ type: 'job.completed' }),
    messageId: 'msg_1',
    netPolicy: policy,
    resolve,
    timeoutMs: 5_000,
  });
  assert.equal(outcome.ok, false);
  assert.equal(outcome.status, undefined);
  assert.match(outcome.error!, /certificate/i);
});
