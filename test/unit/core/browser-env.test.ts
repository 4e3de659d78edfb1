import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserEnvironment, isPassedToBrowser } from '../../../src/core/browser-env.js';

describe("Chromium's environment", () => {
  const serviceEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/imprint',
    LANG: 'en_US.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    TMPDIR: '/tmp',
    XDG_RUNTIME_DIR: '/run/user/1000',
    FONTCONFIG_PATH: '/etc/fonts',
    IMPRINT_API_KEY: 'imp_secret',
    IMPRINT_DATA_DIR: '/var/lib/imprint',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    AWS_ACCESS_KEY_ID: 'AKIA...',
    AWS_SESSION_TOKEN: 'session',
    GITHUB_TOKEN: 'ghp_x',
    DATABASE_URL: 'postgres://user:password@db/imprint',
    REDIS_URL: 'redis://:pw@cache',
    SENTRY_DSN: 'https://key@sentry.example/1',
    HTTP_PROXY: 'http://user:pass@proxy:3128',
    https_proxy: 'http://user:pass@proxy:3128',
    NPM_CONFIG_USERCONFIG: '/x',
    SSH_AUTH_SOCK: '/tmp/ssh',
    LC_SECRET_THING: 'a secret in a locale name',
    NODE_OPTIONS: '--require /evil.js',
    UNDEFINED_ONE: undefined,
  };

  test('keeps what Chromium needs to run', () => {
    assert.deepEqual(browserEnvironment(serviceEnv), {
      PATH: '/usr/bin:/bin',
      HOME: '/home/imprint',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TMPDIR: '/tmp',
      XDG_RUNTIME_DIR: '/run/user/1000',
      FONTCONFIG_PATH: '/etc/fonts',
    });
  });

  const dropped = ['IMPRINT_API_KEY', 'IMPRINT_BROWSER', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'DATABASE_URL', 'SENTRY_DSN', 'HTTP_PROXY', 'NODE_OPTIONS', 'LC_SECRET_THING', 'XDG_AUTH_TOKEN', 'PATH_TOKEN'];
  for (const name of dropped) test(`drops ${name}`, () => assert.equal(isPassedToBrowser(name), false));

  test('no value of the service environment that is not needed reaches the browser', () => {
    const passed = Object.values(browserEnvironment(serviceEnv)).join('\n');
    for (const secret of ['imp_secret', 'aws-secret', 'password', 'ghp_x', 'pw@', 'user:pass']) assert.ok(!passed.includes(secret), secret);
  });
});
