import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSwitch } from '../../../src/backend/environment.js';
import { addServeOptions, collectAllowHosts, parsePositiveInteger, parseQueueLength, resolveServeSettings, serveNetPolicy } from '../../../src/cli/serve-settings.js';
import { parseTrustProxy } from '../../../src/server/settings/trust-proxy.js';
import { ImprintError } from '../../../src/core/errors.js';
import { clientTimeoutOptions, DEFAULT_CLIENT_TIMEOUTS } from '../../../src/server/http/client-timeouts.js';
import { QUEUE_PER_SLOT, resolveServeConfig, servePoolSettings } from '../../../src/server/settings/serve-config.js';
import os from 'node:os';

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

describe('--no-public and IMPRINT_NO_PUBLIC: the allow-list and nothing else', () => {
  const policyOf = (flags: Parameters<typeof resolveServeSettings>[0], env: Record<string, string> = {}) => resolveServeSettings(flags, env).netPolicy;
  test('off by default: public addresses open', () => {
    assert.equal(policyOf({}).allowPublic, true);
    assert.equal(policyOf({}).checkAddress('93.184.216.34').allowed, true);
  });
  test('the flag or the variable closes public addresses; allow-listed ones stay open', () => {
    for (const policy of [policyOf({ noPublic: true, allowHost: ['93.184.216.34'] }), policyOf({ allowHost: ['93.184.216.34'] }, { IMPRINT_NO_PUBLIC: '1' })]) {
      assert.equal(policy.allowPublic, false);
      const publicAddress = policy.checkAddress('8.8.8.8');
      assert.equal(publicAddress.allowed, false);
      assert.equal(!publicAddress.allowed && publicAddress.reason, 'not-allow-listed');
      assert.equal(policy.checkAddress('93.184.216.34').allowed, true);
      assert.equal(policy.checkAddress('127.0.0.1').allowed, false);
    }
  });
  test('with --allow-private: private networks, still no public address', () => {
    const policy = policyOf({ noPublic: true, allowPrivate: true });
    assert.equal(policy.checkAddress('10.1.2.3').allowed, true);
    assert.equal(policy.checkAddress('8.8.8.8').allowed, false);
  });
  test('IMPRINT_NO_PUBLIC=0 stays open; a value that is not on or off is a usage error naming it', () => {
    assert.equal(policyOf({}, { IMPRINT_NO_PUBLIC: '0' }).allowPublic, true);
    assert.throws(() => policyOf({}, { IMPRINT_NO_PUBLIC: 'maybe' }), usage(/IMPRINT_NO_PUBLIC/));
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

describe('--concurrency and --queue-length (IMPRINT_CONCURRENCY, IMPRINT_QUEUE_LENGTH)', () => {
  test('render slots: whole numbers of at least 1', () => {
    assert.equal(parsePositiveInteger('1', '--concurrency'), 1);
    assert.equal(parsePositiveInteger(' 16 ', '--concurrency'), 16);
    for (const bad of ['0', '-2', '2.5', 'four', '', ' ', '0x10', '1e2', '+3', String(2 ** 53)]) {
      assert.throws(() => parsePositiveInteger(bad, '--concurrency'), usage(/^Invalid --concurrency ".*": use a whole number of at least 1\.$/), JSON.stringify(bad));
    }
  });
  test('queue length: 0 is allowed (no render waits), negatives and fractions are not', () => {
    assert.equal(parseQueueLength('0', '--queue-length'), 0);
    assert.equal(parseQueueLength('250', '--queue-length'), 250);
    for (const bad of ['-1', '1.5', 'many', '', '1e3', 'Infinity']) {
      assert.throws(() => parseQueueLength(bad, '--queue-length'), usage(/^Invalid --queue-length ".*": use a whole number of at least 0 \(0: no render waits/), JSON.stringify(bad));
    }
  });
  test('the pool the service runs with: the operator\'s numbers, else one slot per core and 50 waiting per slot', () => {
    assert.deepEqual(servePoolSettings({ concurrency: 3, maxQueue: 7 }), { concurrency: 3, maxQueue: 7 });
    assert.deepEqual(servePoolSettings({ concurrency: 1, maxQueue: 0 }), { concurrency: 1, maxQueue: 0 });
    assert.deepEqual(servePoolSettings({ concurrency: 4 }), { concurrency: 4, maxQueue: 4 * QUEUE_PER_SLOT });
    const cores = os.availableParallelism();
    assert.deepEqual(servePoolSettings(), { concurrency: cores, maxQueue: cores * QUEUE_PER_SLOT });
    assert.equal(QUEUE_PER_SLOT, 50);
  });
  test('a programmatic caller\'s bad numbers are refused before anything starts', () => {
    assert.throws(() => servePoolSettings({ concurrency: 0 }), /concurrency must be a whole number of at least 1/);
    assert.throws(() => servePoolSettings({ concurrency: 2, maxQueue: -1 }), /maxQueue must be a whole number of at least 0/);
    assert.throws(() => servePoolSettings({ concurrency: 1.5 }), /concurrency/);
  });
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

describe('--reservation-lease (PostgreSQL: a dead node\'s reservations are given back after it)', () => {
  const base = { dataDir: '/tmp/x', version: 'test', browser: { search: {}, env: {}, runningAsRoot: false } };
  test('the default is 10 minutes; a lease longer than the render timeout is taken', () => {
    assert.equal(resolveServeConfig(base).reservationLeaseMs, 10 * 60 * 1000);
    assert.equal(resolveServeConfig({ ...base, renderTimeoutMs: 2000, reservationLeaseMs: 3000 }).reservationLeaseMs, 3000);
  });
  test('a lease not longer than the render timeout is refused, naming both flags', () => {
    assert.throws(() => resolveServeConfig({ ...base, reservationLeaseMs: 30_000 }), usage(/--reservation-lease \(30000 ms\) must be longer than --render-timeout \(30000 ms\)/));
    assert.throws(() => resolveServeConfig({ ...base, renderTimeoutMs: 5000, reservationLeaseMs: 1000 }), usage(/--reservation-lease/));
  });
});

describe('--storage (IMPRINT_STORAGE) and the S3 SDK\'s variables', () => {
  const storageOf = (flags: { storage?: { bucket: string; prefix: string } }, env: Record<string, string>) => resolveServeSettings(flags, env).storage;

  test('absent: no storage setting (files in the data folder)', () => {
    assert.equal(storageOf({}, { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000' }), undefined);
  });
  test('the bucket from the variable; the endpoint (service-specific first) and the region from the SDK\'s variables', () => {
    assert.deepEqual(storageOf({}, { IMPRINT_STORAGE: 's3://imprint/prod/', AWS_ENDPOINT_URL: 'http://general:9000', AWS_ENDPOINT_URL_S3: 'http://minio:9000', AWS_REGION: 'eu-west-1' }), {
      bucket: 'imprint',
      prefix: 'prod',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
    });
    assert.deepEqual(storageOf({}, { IMPRINT_STORAGE: 's3://imprint', AWS_ENDPOINT_URL: 'http://general:9000' }), { bucket: 'imprint', prefix: '', endpoint: 'http://general:9000', region: undefined });
  });
  test('the flag wins over the variable; AWS with no endpoint', () => {
    assert.deepEqual(storageOf({ storage: { bucket: 'flagged', prefix: '' } }, { IMPRINT_STORAGE: 's3://variable' }), { bucket: 'flagged', prefix: '', endpoint: undefined, region: undefined });
  });
  test('an unreadable value is a usage error naming the variable', () => {
    assert.throws(() => storageOf({}, { IMPRINT_STORAGE: '/var/lib/imprint' }), usage(/IMPRINT_STORAGE.*not an S3 location/));
    assert.throws(() => storageOf({}, { IMPRINT_STORAGE: 's3://imprint', AWS_ENDPOINT_URL_S3: 'minio:9000' }), usage(/AWS_ENDPOINT_URL_S3="minio:9000".*http:\/\/127\.0\.0\.1:9000/));
  });
});

describe('the dashboard: --no-dashboard, IMPRINT_DASHBOARD, --trust-proxy', () => {
  test('on unless the flag or the variable turns it off; the variable is strict', () => {
    assert.equal(resolveServeSettings({}, {}).dashboard, true);
    assert.equal(resolveServeSettings({ noDashboard: true }, {}).dashboard, false);
    assert.equal(resolveServeSettings({}, { IMPRINT_DASHBOARD: 'off' }).dashboard, false);
    assert.equal(resolveServeSettings({}, { IMPRINT_DASHBOARD: '1' }).dashboard, true);
    assert.equal(resolveServeSettings({ noDashboard: true }, { IMPRINT_DASHBOARD: 'on' }).dashboard, false, 'the flag turns it off whatever the variable');
    assert.throws(() => resolveServeSettings({}, { IMPRINT_DASHBOARD: 'maybe' }), /IMPRINT_DASHBOARD/);
  });

  test('the proxy is trusted only when the operator says so, and only the proxies named: never every hop (issue 41, case 2)', async () => {
    assert.equal(resolveServeSettings({}, {}).trustProxy, undefined, "not given: the service's default");
    assert.equal(resolveServeConfig({ dataDir: '/tmp/x', version: 'test', browser: { search: {}, env: {}, runningAsRoot: false } }).trustProxy, false, 'which is off');
    assert.deepEqual(resolveServeSettings({}, { IMPRINT_TRUST_PROXY: '1' }).trustProxy, ['loopback']);
    assert.equal(resolveServeSettings({}, { IMPRINT_TRUST_PROXY: '0' }).trustProxy, false);
    assert.deepEqual(resolveServeSettings({}, { IMPRINT_TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,::1' }).trustProxy, ['10.0.0.5', '10.0.1.0/24', '::1']);
    assert.deepEqual(resolveServeSettings({ trustProxy: parseTrustProxy('uniquelocal') }, { IMPRINT_TRUST_PROXY: 'off' }).trustProxy, ['uniquelocal'], 'the flag before the variable');
    for (const wrong of ['2', '10.0.0.300', 'nginx.internal', '10.0.0.0/33', '', '10.0.0.1/8/2']) {
      assert.throws(() => parseTrustProxy(wrong), (error: ImprintError) => error.code === 'USAGE' && /--trust-proxy/.test(error.message), wrong);
    }
    // As commander reads the flag: alone, with addresses, and a wrong one as a usage error.
    const { Command } = await import('commander');
    const parsed = (args: string[]) => addServeOptions(new Command().exitOverride().configureOutput({ writeErr: () => undefined })).parse(['node', 'serve', ...args]).opts();
    assert.deepEqual(parsed(['--trust-proxy']).trustProxy, ['loopback']);
    assert.deepEqual(parsed(['--trust-proxy', '10.0.0.5']).trustProxy, ['10.0.0.5']);
    assert.throws(() => parsed(['--trust-proxy', '3']), /a number of proxies cannot tell a proxy from a client/);
  });
});
