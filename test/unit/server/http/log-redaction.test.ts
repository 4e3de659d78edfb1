/** Which URL the log shows (src/server/http/log-redaction.ts): by the matched route, or normalised under a secret-bearing one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretRoutes } from '../../../../src/server/http/log-redaction.js';
import { nearMiss } from '../../../../src/core/near-miss.js';

const routes = secretRoutes();
routes.add({ url: '/api/files/:token', config: { secretParams: ['token'] } });
routes.add({ url: '/api/templates/:id', config: {} });
routes.add({ url: '/api/things/:id/keys/:key', config: { secretParams: ['key'] } });

const matched = (pattern: string, url: string, params: Record<string, string>, config: unknown) => routes.urlOf({ url, routeOptions: { url: pattern, config }, params });
const unmatched = (url: string) => routes.urlOf({ url, routeOptions: {} });

test('a matched route with a secret: its pattern, the secret as [name], other parameters filled in, no query', () => {
  assert.equal(matched('/api/files/:token', '/api/fil%65s/abc?x=1', { token: 'abc' }, { secretParams: ['token'] }), '/api/files/[token]');
  assert.equal(matched('/api/things/:id/keys/:key', '/api/things/a%20b/keys/k', { id: 'a b', key: 'k' }, { secretParams: ['key'] }), '/api/things/a%20b/keys/[key]');
});

test('a matched route without secrets: the URL as sent', () => {
  assert.equal(matched('/api/templates/:id', '/api/templates/inv?x=1', { id: 'inv' }, {}), '/api/templates/inv?x=1');
});

test('no route matched: redacted past the start of a secret-bearing route, however spelt', () => {
  for (const url of ['/api/files//abc', '/API/FILES/abc', '/api/%66iles//abc', '/api/files/abc/', '//api//files/abc?t=abc', '/api/things/1/keys/']) {
    assert.ok(!unmatched(url).includes('abc'), `${url} -> ${unmatched(url)}`);
    assert.match(unmatched(url), /\[redacted\]$/);
  }
  assert.equal(unmatched('/api/nothing/abc'), '/api/nothing/abc');
});

test('near misses: known confusions first, then spelling within a third of the word', () => {
  const known = ['template', 'rows', 'name', 'webhook', 'orientation'];
  assert.equal(nearMiss('documentId', known, { documentId: 'template' }), 'template');
  assert.equal(nearMiss('DocumentID', known, { documentId: 'template' }), 'template');
  assert.equal(nearMiss('orientaton', known), 'orientation');
  assert.equal(nearMiss('rowz', known), 'rows');
  assert.equal(nearMiss('colour', known), undefined);
});
