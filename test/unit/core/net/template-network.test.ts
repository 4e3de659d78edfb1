import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNetPolicy } from '../../../../src/core/net/address-policy.js';
import { templateNetwork } from '../../../../src/core/net/template-network.js';

test('with nothing allow-listed templates have no network at all', () => {
  assert.equal(templateNetwork(createNetPolicy()), undefined);
  assert.equal(templateNetwork(createNetPolicy({ allowPrivate: true })), undefined);
});

test('requests to allow-listed hosts may leave the page; nothing else, and only over http(s)', () => {
  const mayLeave = templateNetwork(createNetPolicy({ allow: ['cdn.example.org', '*.assets.example.com', '10.1.0.0/16', '2001:db8::/32'] }))!;
  const cases: Array<[string, boolean]> = [
    ['https://cdn.example.org/logo.png', true],
    ['http://CDN.example.org./logo.png', true],
    ['https://eu.assets.example.com/font.woff2', true],
    ['https://10.1.2.3/x', true],
    ['https://[2001:db8::1]/x', true],
    ['https://example.org/', false],
    ['https://cdn.example.org.evil.test/', false],
    ['https://10.2.0.1/', false],
    ['https://127.0.0.1/', false],
    ['ws://cdn.example.org/socket', false],
    ['file:///etc/passwd', false],
    ['ftp://cdn.example.org/', false],
  ];
  for (const [url, expected] of cases) assert.equal(mayLeave(new URL(url)), expected, url);
});
