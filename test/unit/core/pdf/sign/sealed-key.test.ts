/** The sealing of a team's signing key and the `sign` option's parser: pure logic, no PDF. */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { openSigningKey, sealSigningKey, serverSecret } from '../../../../../src/core/pdf/sign/sealed-key.js';
import { parseSignOption } from '../../../../../src/core/pdf/sign/sign-option.js';
import type { SigningKey } from '../../../../../src/core/pdf/sign/signing-key.js';

const SECRET = 'a-server-secret-of-forty-characters-0123';
const key: SigningKey = { privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, certificate: Buffer.from('cert-der'), chain: [Buffer.from('ca-der')] };
const isCode = (code: string, pattern: RegExp) => (error: Error & { code?: string }) => error.code === code && pattern.test(error.message);

test('a sealed key opens with the same secret for the same team, and holds nothing of the key in clear', () => {
  const sealed = sealSigningKey(key, SECRET, 7);
  assert.match(sealed, /^v1\./);
  const der = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  assert.ok(!sealed.includes(der.toString('base64').slice(0, 40)));
  const opened = openSigningKey(sealed, SECRET, 7);
  assert.deepEqual(opened.privateKey.export({ format: 'der', type: 'pkcs8' }), der);
  assert.deepEqual(opened.certificate, key.certificate);
  assert.deepEqual(opened.chain, key.chain);
  assert.notEqual(sealSigningKey(key, SECRET, 7), sealed, 'a fresh salt and IV each time');
});

test('another secret, another team or a changed byte does not open it', () => {
  const sealed = sealSigningKey(key, SECRET, 7);
  assert.throws(() => openSigningKey(sealed, `${SECRET}x`, 7), isCode('INTERNAL', /another secret/));
  assert.throws(() => openSigningKey(sealed, SECRET, 8), isCode('INTERNAL', /another secret/));
  const bytes = Buffer.from(sealed.slice(3), 'base64');
  bytes[bytes.length - 1]! ^= 1;
  assert.throws(() => openSigningKey(`v1.${bytes.toString('base64')}`, SECRET, 7), isCode('INTERNAL', /does not open/));
});

test('the server secret: required, and at least 32 characters', () => {
  assert.throws(() => serverSecret({}, 'Storing a signing key'), isCode('USAGE', /Storing a signing key needs the server's secret: set IMPRINT_SECRET/));
  assert.throws(() => serverSecret({ IMPRINT_SECRET: 'short' }, 'x'), isCode('USAGE', /is 5 characters: use at least 32/));
  assert.equal(serverSecret({ IMPRINT_SECRET: SECRET }, 'x'), SECRET);
});

test('sign: true, { tsa }, false; anything else refused with the forms it takes', () => {
  assert.deepEqual(parseSignOption(true), {});
  assert.equal(parseSignOption(false), undefined);
  assert.deepEqual(parseSignOption({ tsa: 'http://tsa.example/ts' }), { tsa: 'http://tsa.example/ts' });
  assert.deepEqual(parseSignOption({}), {});
  assert.throws(() => parseSignOption('yes'), isCode('USAGE', /use true .* or \{ "tsa"/));
  assert.throws(() => parseSignOption({ tsa: 'ftp://x' }), isCode('USAGE', /Invalid sign\.tsa "ftp:\/\/x"/));
  assert.throws(() => parseSignOption({ tas: 'http://x' }), isCode('USAGE', /unknown field "tas"/));
});
