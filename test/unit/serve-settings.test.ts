import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSwitch } from '../../src/cli/env-switch.js';
import { collectAllowHosts, parsePositiveInteger, serveNetPolicy } from '../../src/cli/serve-settings.js';
import { ImprintError } from '../../src/core/errors.js';
import { clientTimeoutOptions, DEFAULT_CLIENT_TIMEOUTS } from '../../src/server/client-timeouts.js';

const usage = (pattern: RegExp) => (error: unknown) => error instanceof ImprintError && error.code === 'USAGE' && pattern.test(error.message);

describe('--allow-host and IMPRINT_ALLOW_HOSTS', () => {
  test('repeated flags add up', () => {
    const once = collectAllowHosts('assets.example.org', []);
    assert.deepEqual(collectAllowHosts('10.0.0.0/8', once), ['assets.example.org', '10.0.0.0/8']);
  });
  test('a comma list (the environment variable) is split and trimmed', () => {
    assert.deepEqual(collectAllowHosts(' a.example.org, *.corp.example ,192.168.1.5,, fd00::/8 '), ['a.example.org', '*.corp.example', '192.168.1.5', 'fd00::/8']);
  });
  for (const bad of ['http://x.org/', 'a.org:8080', '10.0.0.0/33', 'user@host', '*', '*.']) {
    test(`refuses ${JSON.stringify(bad)}, naming it`, () => assert.throws(() => collectAllowHosts(bad), usage(new RegExp(`allow-list entr.*${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`))));
  }
  test('the policy: public plus what was opened', () => {
    const policy = serveNetPolicy({ allowHost: ['intranet.example', '10.20.0.0/16'], allowPrivate: false });
    assert.equal(policy.checkAddress('10.20.3.4').allowed, true);
    assert.equal(policy.checkAddress('10.21.0.1').allowed, false);
    assert.equal(policy.checkAddress('127.0.0.1').allowed, false);
    assert.equal(policy.allowList.matchesHost('intranet.example'), true);
    assert.equal(policy.checkAddress('93.184.216.34').allowed, true);
  });
  test('--allow-private opens private ranges but not metadata', () => {
    const policy = serveNetPolicy({ allowHost: [], allowPrivate: true });
    assert.equal(policy.checkAddress('127.0.0.1').allowed, true);
    assert.equal(policy.checkAddress('169.254.169.254').allowed, false);
  });
});

describe('IMPRINT_ALLOW_PRIVATE', () => {
  for (const on of ['1', 'true', 'YES', ' on ']) test(`${JSON.stringify(on)} is on`, () => assert.equal(parseSwitch('IMPRINT_ALLOW_PRIVATE', on), true));
  for (const off of [undefined, '', '0', 'false', 'No', 'off']) test(`${JSON.stringify(off)} is off`, () => assert.equal(parseSwitch('IMPRINT_ALLOW_PRIVATE', off), false));
  for (const bad of ['2', 'enabled', 'y e s']) {
    test(`${JSON.stringify(bad)} is an error, not a guess`, () => assert.throws(() => parseSwitch('IMPRINT_ALLOW_PRIVATE', bad), usage(/IMPRINT_ALLOW_PRIVATE.*use 1 \(on\) or 0 \(off\)/)));
  }
});

describe('limit counts', () => {
  test('whole numbers of at least 1', () => assert.equal(parsePositiveInteger('32', '--max-props-depth'), 32));
  for (const bad of ['0', '-1', '1.5', 'ten', '', '1e3']) {
    test(`refuses ${JSON.stringify(bad)}`, () => assert.throws(() => parsePositiveInteger(bad, '--max-pages'), usage(/Invalid --max-pages/)));
  }
});

describe('client timeouts as Fastify and Node options', () => {
  test('the defaults', () => {
    const options = clientTimeoutOptions(DEFAULT_CLIENT_TIMEOUTS);
    assert.equal(options.connectionTimeout, 30_000);
    assert.equal(options.requestTimeout, 60_000);
    assert.equal(options.keepAliveTimeout, 5_000);
    assert.equal(options.http?.headersTimeout, 10_000);
    assert.equal(options.http?.connectionsCheckingInterval, 1000);
  });
  test('headers never wait longer than the whole request (Node refuses that), and short bounds are checked often', () => {
    const options = clientTimeoutOptions({ headersMs: 5000, requestMs: 800, idleMs: 500, keepAliveMs: 300 });
    assert.equal(options.http?.headersTimeout, 800);
    assert.equal(options.http?.connectionsCheckingInterval, 200);
  });
});
