import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { canonical, defaultRendererSettings, rendererIdentity } from '../../../../src/cli/renderer/renderer-settings.js';
import { imprintVersion } from '../../../../src/core/version.js';

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');

test('the renderer identity (hashed in JavaScript, for the thin path) is the SHA-256 node:crypto gives', () => {
  // Non-ASCII in a path: the digest is of the settings' UTF-8 bytes.
  const settings = defaultRendererSettings('/tmp/données/ünïcode', { search: { explicitPath: '/usr/bin/chromium', puppeteerCacheDir: '/root/.cache/puppeteer' }, env: { LANG: 'C.UTF-8' }, runningAsRoot: true }, false);
  const identity = rendererIdentity(settings, '1764190000000.5');
  assert.equal(identity.name, sha256(settings).slice(0, 16));
  assert.equal(identity.key, sha256({ settings, version: imprintVersion(), build: '1764190000000.5' }).slice(0, 32));
  assert.notEqual(rendererIdentity({ ...settings, allowLocal: true }, '1').name, rendererIdentity(settings, '1').name);
});

test('the same settings name the same renderer whatever the order of the environment\'s variables (a shell\'s exec may reorder them)', () => {
  const browser = (env: Record<string, string>) => ({ search: { puppeteerCacheDir: '/root/.cache/puppeteer' }, env, runningAsRoot: true });
  const a = rendererIdentity(defaultRendererSettings('/d', browser({ HOME: '/root', LANG: 'C.UTF-8', PATH: '/bin' }), false), '1');
  const b = rendererIdentity(defaultRendererSettings('/d', browser({ PATH: '/bin', HOME: '/root', LANG: 'C.UTF-8' }), false), '1');
  assert.deepEqual(a, b);
  assert.notDeepEqual(rendererIdentity(defaultRendererSettings('/d', browser({ HOME: '/root', LANG: 'C', PATH: '/bin' }), false), '1'), a);
  assert.deepEqual(canonical({ b: [{ d: 1, c: 2 }], a: null }), { a: null, b: [{ c: 2, d: 1 }] });
  assert.equal(JSON.stringify(canonical({ b: 1, a: 2 })), '{"a":2,"b":1}');
});
