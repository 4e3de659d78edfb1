/**
 * The settings path of each face: flags beat environment variables beat defaults, every
 * default applied once (by the service, not by commander), and a variable that cannot be read
 * is a usage error naming it. The CLI's global settings (data folder, browser) follow the same
 * order.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Command } from 'commander';
import envPaths from 'env-paths';
import { browserSettings } from '../../../src/backend/browser-settings.js';
import { resolveDataDir } from '../../../src/backend/data-dir.js';
import { envValue, type Environment } from '../../../src/backend/environment.js';
import { addServeOptions, resolveServeSettings, type ServeFlags } from '../../../src/cli/serve-settings.js';
import { ImprintError } from '../../../src/core/errors.js';
import { DEFAULT_RENDER_LIMITS } from '../../../src/core/limits/render-limits.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../../src/core/render/deadline.js';
import { DEFAULT_CLIENT_TIMEOUTS } from '../../../src/server/http/client-timeouts.js';
import { resolveServeConfig, SERVE_DEFAULTS } from '../../../src/server/settings/serve-config.js';
import { DEFAULT_WEBHOOK_RETRY_BASE_MS } from '../../../src/core/webhooks/backoff.js';

const BROWSER = { search: {}, env: {}, runningAsRoot: false };

/** The whole path `imprint serve` takes: argv through commander, then the variables, then the service's defaults. */
function serveConfig(args: string[], env: Environment) {
  const command = addServeOptions(new Command('serve').exitOverride());
  command.parse(args, { from: 'user' });
  const { logLevel, ...settings } = resolveServeSettings(command.opts<ServeFlags>(), env);
  return { logLevel, config: resolveServeConfig({ ...settings, dataDir: '/data', version: 'test', browser: BROWSER }) };
}

const usageNaming = (variable: string, flag: string, reason: RegExp) => (error: unknown) =>
  error instanceof ImprintError &&
  error.code === 'USAGE' &&
  error.exitCode === 2 &&
  error.message.includes(`from env '${variable}' is invalid`) &&
  error.message.includes(flag) &&
  reason.test(error.message);

const ENV: Environment = {
  IMPRINT_PORT: '9000',
  IMPRINT_HOST: '0.0.0.0',
  IMPRINT_PUBLIC_URL: 'https://pdf.example.org/',
  IMPRINT_URL_TTL: '1h',
  IMPRINT_RENDER_TIMEOUT: '45s',
  IMPRINT_LOG_LEVEL: 'warn',
  IMPRINT_ALLOW_HOSTS: 'assets.example.org, 10.20.0.0/16',
  IMPRINT_ALLOW_PRIVATE: '1',
  IMPRINT_CONCURRENCY: '3',
  IMPRINT_QUEUE_LENGTH: '0',
  IMPRINT_MAX_PROPS_DEPTH: '8',
  IMPRINT_MAX_PAGES: '7',
  IMPRINT_MAX_PDF_SIZE: '2MiB',
  IMPRINT_MAX_BODY_SIZE: '1MiB',
  IMPRINT_HEADERS_TIMEOUT: '3s',
  IMPRINT_KEEP_ALIVE_TIMEOUT: '2s',
};

describe('imprint serve: flags, then variables, then defaults', () => {
  test('nothing given: every default, each from the one table of defaults', () => {
    const { logLevel, config } = serveConfig([], {});
    const cores = os.availableParallelism();
    assert.equal(logLevel, 'info');
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.publicUrl, undefined);
    assert.equal(config.urlTtlMs, 24 * 3_600_000);
    // The service's render deadline is the core's, not a copy of it.
    assert.equal(config.renderTimeoutMs, DEFAULT_RENDER_TIMEOUT_MS);
    assert.deepEqual(config.pool, { concurrency: cores, maxQueue: 50 * cores });
    assert.deepEqual(config.renderLimits, DEFAULT_RENDER_LIMITS);
    assert.deepEqual(config.limits, { requestBytes: 10 * 1024 * 1024, artifactBytes: 50 * 1024 * 1024 });
    assert.deepEqual(config.timeouts, DEFAULT_CLIENT_TIMEOUTS);
    assert.equal(config.netPolicy.checkAddress('127.0.0.1').allowed, false);
    assert.equal(config.netPolicy.checkAddress('93.184.216.34').allowed, true);
  });

  test('job webhooks: retry base and attempt timeout, from the flag, the variable, else the default', () => {
    assert.deepEqual(serveConfig([], {}).config.webhooks, { retryBaseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS, timeoutMs: 10_000 });
    const env = { IMPRINT_WEBHOOK_RETRY_BASE: '50ms', IMPRINT_WEBHOOK_TIMEOUT: '2s' };
    assert.deepEqual(serveConfig([], env).config.webhooks, { retryBaseMs: 50, timeoutMs: 2_000 });
    assert.deepEqual(serveConfig(['--webhook-retry-base', '1s'], env).config.webhooks, { retryBaseMs: 1_000, timeoutMs: 2_000 });
    assert.throws(() => serveConfig(['--webhook-timeout', '0s'], {}), /--webhook-timeout/);
  });

  test('commander fills in no default: what it parsed is only what was typed', () => {
    const command = addServeOptions(new Command('serve').exitOverride());
    command.parse(['--max-pages', '3'], { from: 'user' });
    assert.deepEqual(command.opts(), { maxPages: 3 });
  });

  test('variables beat defaults; what no variable sets keeps its default', () => {
    const { logLevel, config } = serveConfig([], ENV);
    assert.equal(logLevel, 'warn');
    assert.equal(config.port, 9000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.publicUrl, 'https://pdf.example.org');
    assert.equal(config.urlTtlMs, 3_600_000);
    assert.equal(config.renderTimeoutMs, 45_000);
    assert.deepEqual(config.pool, { concurrency: 3, maxQueue: 0 });
    assert.deepEqual(config.renderLimits, { maxPropsDepth: 8, maxPages: 7, maxPdfBytes: 2 * 1024 * 1024 });
    assert.deepEqual(config.limits, { requestBytes: 1024 * 1024, artifactBytes: SERVE_DEFAULTS.limits.artifactBytes });
    assert.deepEqual(config.timeouts, { ...DEFAULT_CLIENT_TIMEOUTS, headersMs: 3000, keepAliveMs: 2000 });
    assert.equal(config.netPolicy.allowList.matchesHost('assets.example.org'), true);
    assert.equal(config.netPolicy.checkAddress('10.20.3.4').allowed, true);
    assert.equal(config.netPolicy.allowPrivate, true);
  });

  test('flags beat variables, one setting at a time', () => {
    const { logLevel, config } = serveConfig(
      ['--port', '9100', '--concurrency', '5', '--max-pages', '9', '--allow-host', 'cdn.example.net', '--log-level', 'error', '--render-timeout', '2m'],
      ENV,
    );
    assert.equal(logLevel, 'error');
    assert.equal(config.port, 9100);
    assert.equal(config.renderTimeoutMs, 120_000);
    // --concurrency from the flag, --queue-length still from its variable.
    assert.deepEqual(config.pool, { concurrency: 5, maxQueue: 0 });
    assert.equal(config.renderLimits.maxPages, 9);
    assert.equal(config.renderLimits.maxPropsDepth, 8);
    // The flag's list replaces the variable's, it does not add to it.
    assert.equal(config.netPolicy.allowList.matchesHost('cdn.example.net'), true);
    assert.equal(config.netPolicy.allowList.matchesHost('assets.example.org'), false);
  });

  test('an empty variable counts as unset', () => {
    const { logLevel, config } = serveConfig([], { IMPRINT_PORT: '', IMPRINT_MAX_PAGES: '  ', IMPRINT_LOG_LEVEL: '', IMPRINT_ALLOW_PRIVATE: '' });
    assert.equal(logLevel, 'info');
    assert.equal(config.port, 8080);
    assert.equal(config.renderLimits.maxPages, DEFAULT_RENDER_LIMITS.maxPages);
    assert.equal(config.netPolicy.allowPrivate, false);
  });

  const bad: [Environment, string, string, RegExp][] = [
    [{ IMPRINT_CONCURRENCY: 'lots' }, 'IMPRINT_CONCURRENCY', '--concurrency <n>', /use a whole number of at least 1/],
    [{ IMPRINT_QUEUE_LENGTH: '1e3' }, 'IMPRINT_QUEUE_LENGTH', '--queue-length <n>', /at least 0/],
    [{ IMPRINT_MAX_PAGES: '0' }, 'IMPRINT_MAX_PAGES', '--max-pages <n>', /at least 1/],
    [{ IMPRINT_RENDER_TIMEOUT: 'soon' }, 'IMPRINT_RENDER_TIMEOUT', '--render-timeout <duration>', /positive duration such as 90s/],
    [{ IMPRINT_MAX_BODY_SIZE: 'big' }, 'IMPRINT_MAX_BODY_SIZE', '--max-body-size <size>', /positive size such as 100MiB/],
    [{ IMPRINT_PORT: '99999' }, 'IMPRINT_PORT', '--port <port>', /Use a port number from 0 to 65535/],
    [{ IMPRINT_LOG_LEVEL: 'loud' }, 'IMPRINT_LOG_LEVEL', '--log-level <level>', /Allowed choices are fatal, error/],
    [{ IMPRINT_ALLOW_HOSTS: 'http://x.org/' }, 'IMPRINT_ALLOW_HOSTS', '--allow-host', /allow-list entry "http:\/\/x\.org\/"/],
    [{ IMPRINT_PUBLIC_URL: 'ftp://x' }, 'IMPRINT_PUBLIC_URL', '--public-url <url>', /must start with http/],
  ];
  for (const [env, variable, flag, reason] of bad) {
    test(`a bad ${variable} is a usage error naming it and its flag`, () => {
      assert.throws(() => serveConfig([], env), usageNaming(variable, flag, reason));
    });
  }

  test('IMPRINT_ALLOW_PRIVATE is read strictly', () => {
    assert.throws(
      () => serveConfig([], { IMPRINT_ALLOW_PRIVATE: 'maybe' }),
      (error: unknown) => error instanceof ImprintError && error.code === 'USAGE' && /IMPRINT_ALLOW_PRIVATE="maybe": use 1 \(on\) or 0 \(off\)/.test(error.message),
    );
    assert.equal(serveConfig(['--allow-private'], {}).config.netPolicy.allowPrivate, true);
    assert.equal(serveConfig([], { IMPRINT_ALLOW_PRIVATE: '0' }).config.netPolicy.allowPrivate, false);
  });

  test('--no-public is a switch as typed (not commander\'s negation of a "public" default), read like IMPRINT_NO_PUBLIC', () => {
    assert.equal(serveConfig([], {}).config.netPolicy.allowPublic, true);
    assert.equal(serveConfig(['--no-public'], {}).config.netPolicy.allowPublic, false);
    assert.equal(serveConfig([], { IMPRINT_NO_PUBLIC: '1' }).config.netPolicy.allowPublic, false);
    assert.equal(serveConfig([], { IMPRINT_NO_PUBLIC: '0' }).config.netPolicy.allowPublic, true);
    assert.equal(serveConfig(['--no-public', '--allow-host', '127.0.0.1'], {}).config.netPolicy.checkAddress('127.0.0.1').allowed, true);
  });

  test('a variable a flag overrides is not read, so its bad value does not matter', () => {
    assert.equal(serveConfig(['--concurrency', '2'], { IMPRINT_CONCURRENCY: 'lots' }).config.pool.concurrency, 2);
  });

  test('envValue hands the text to the parser and reports what it refuses', () => {
    assert.equal(envValue({ X: ' 42 ' }, 'X', '--x <n>', (text) => Number(text.trim())), 42);
    assert.equal(envValue({}, 'X', '--x <n>', () => assert.fail('not called for an unset variable')), undefined);
    assert.throws(
      () =>
        envValue({ X: 'no' }, 'X', '--x <n>', () => {
          throw new Error('not a number');
        }),
      (error: unknown) => error instanceof ImprintError && error.message === "Option '--x <n>' value 'no' from env 'X' is invalid. Not a number",
    );
  });
});

describe('the CLI\'s global settings: flag, then variable, then default', () => {
  test('the data folder', () => {
    assert.equal(resolveDataDir({ dataDir: 'from-flag' }, { IMPRINT_DATA_DIR: '/from/env' }), path.resolve('from-flag'));
    assert.equal(resolveDataDir({}, { IMPRINT_DATA_DIR: '/from/env' }), '/from/env');
    const fallback = path.resolve(envPaths('imprint', { suffix: '' }).data);
    assert.equal(resolveDataDir({}, {}), fallback);
    assert.equal(resolveDataDir({}, { IMPRINT_DATA_DIR: '' }), fallback);
  });

  test('the browser: --browser, then IMPRINT_BROWSER, then PUPPETEER_EXECUTABLE_PATH', () => {
    const env = { IMPRINT_BROWSER: '/env/imprint', PUPPETEER_EXECUTABLE_PATH: '/env/puppeteer' };
    assert.equal(browserSettings('/flag/chromium', env).search.explicitPath, '/flag/chromium');
    assert.equal(browserSettings(undefined, env).search.explicitPath, '/env/imprint');
    assert.equal(browserSettings(undefined, { PUPPETEER_EXECUTABLE_PATH: '/env/puppeteer' }).search.explicitPath, '/env/puppeteer');
    assert.equal(browserSettings(undefined, {}).search.explicitPath, undefined);
    assert.equal(browserSettings(undefined, {}).search.puppeteerCacheDir, path.join(os.homedir(), '.cache', 'puppeteer'));
  });
});
