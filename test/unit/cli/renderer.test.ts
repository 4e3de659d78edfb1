/** The warm renderer's pure parts: its identity, its wire format for errors and results, its lock. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { isAlive, lockHolder, releaseLock, takeLock } from '../../../src/cli/renderer/renderer-lock.js';
import { defaultRendererSettings, rendererEnabled, rendererIdentity, rendererIdleMs } from '../../../src/cli/renderer/renderer-settings.js';
import { fromWireError, fromWireResult, toWireError, toWireResult } from '../../../src/cli/renderer/wire.js';

const browser = { search: { explicitPath: '/usr/bin/chromium' }, env: { PATH: '/usr/bin' }, runningAsRoot: false };

test('the socket name follows the settings; the key follows the settings, the version and the build', () => {
  const base = rendererIdentity(defaultRendererSettings('/data/a', browser, false), 'build-1');
  assert.deepEqual(rendererIdentity(defaultRendererSettings('/data/a', browser, false), 'build-1'), base);
  const otherBuild = rendererIdentity(defaultRendererSettings('/data/a', browser, false), 'build-2');
  assert.equal(otherBuild.name, base.name, 'another build replaces the renderer at the same socket');
  assert.notEqual(otherBuild.key, base.key);
  for (const other of [
    defaultRendererSettings('/data/b', browser, false),
    defaultRendererSettings('/data/a', { ...browser, search: { explicitPath: '/opt/chrome' } }, false),
    defaultRendererSettings('/data/a', { ...browser, env: { PATH: '/bin' } }, false),
    defaultRendererSettings('/data/a', browser, true),
    { ...defaultRendererSettings('/data/a', browser, false), renderTimeoutMs: 5000 },
    // IMPRINT_SPOOL_FROM: a renderer started with another threshold would spool, or not, against the call's setting.
    { ...defaultRendererSettings('/data/a', browser, false), spoolFromBytes: 64 << 10 },
  ]) {
    assert.notEqual(rendererIdentity(other, 'build-1').name, base.name, JSON.stringify(other));
  }
});

test('on by default; --no-renderer and IMPRINT_RENDERER=off turn it off; a bad value is a usage error', () => {
  assert.equal(rendererEnabled({}, undefined), true);
  assert.equal(rendererEnabled({}, false), false);
  assert.equal(rendererEnabled({ IMPRINT_RENDERER: 'off' }, undefined), false);
  assert.equal(rendererEnabled({ IMPRINT_RENDERER: '0' }, undefined), false);
  assert.equal(rendererEnabled({ IMPRINT_RENDERER: 'on' }, false), false);
  assert.equal(rendererEnabled({ IMPRINT_RENDERER: '' }, undefined), true);
  assert.throws(() => rendererEnabled({ IMPRINT_RENDERER: 'maybe' }, undefined), (error: unknown) => error instanceof ImprintError && error.code === 'USAGE');
});

test('the idle time: 60 s by default, durations as serve reads them', () => {
  assert.equal(rendererIdleMs({}), 60_000);
  assert.equal(rendererIdleMs({ IMPRINT_RENDERER_IDLE: '2s' }), 2000);
  assert.equal(rendererIdleMs({ IMPRINT_RENDERER_IDLE: '10m' }), 600_000);
  assert.throws(() => rendererIdleMs({ IMPRINT_RENDERER_IDLE: 'soon' }), /IMPRINT_RENDERER_IDLE/);
});

test('errors cross the socket with their code, message and details; others keep their stack', () => {
  const original = new ImprintError('INVALID_INPUT', 'The props are wrong.', { details: '  at /name: expected a string' });
  const copy = fromWireError(JSON.parse(JSON.stringify(toWireError(original))));
  assert.ok(copy instanceof ImprintError);
  assert.equal(copy.code, 'INVALID_INPUT');
  assert.equal(copy.message, original.message);
  assert.equal(copy.details, original.details);
  assert.equal(copy.exitCode, original.exitCode);
  const usage = fromWireError(toWireError(new ImprintError('USAGE', 'bad flag')));
  assert.equal((usage as ImprintError).exitCode, 2);
  const bug = new TypeError('x is not a function');
  const crossed = fromWireError(JSON.parse(JSON.stringify(toWireError(bug))));
  assert.ok(!(crossed instanceof ImprintError));
  assert.equal(crossed.stack, bug.stack);
});

test('results cross the socket byte for byte', () => {
  const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80]);
  const crossed = fromWireResult(JSON.parse(JSON.stringify(toWireResult({ format: 'pdf', pdf }))));
  assert.ok(crossed.format === 'pdf' && Buffer.isBuffer(crossed.pdf) && crossed.pdf.equals(pdf));
  assert.deepEqual(fromWireResult(toWireResult({ format: 'json', body: { url: 'file:///x.pdf' } })), { format: 'json', body: { url: 'file:///x.pdf' } });
});

test('the lock: taken once, held against a live process, taken over from a dead one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-lock-'));
  const lock = path.join(dir, 'r.lock');
  try {
    assert.equal(takeLock(lock), true);
    assert.equal(lockHolder(lock), process.pid);
    assert.equal((fs.statSync(lock).mode & 0o777), 0o600);
    // Held by a live process (this one, as another renderer would see it).
    assert.equal(takeLock(lock), false);
    releaseLock(lock);
    assert.equal(fs.existsSync(lock), false);
    // Left by a process that is gone: a pid no process has.
    let dead = 2 ** 22 - 1;
    while (isAlive(dead)) dead--;
    fs.writeFileSync(lock, `${dead}\n`);
    assert.equal(takeLock(lock), true);
    assert.equal(lockHolder(lock), process.pid);
    assert.equal(isAlive(0), false, 'pid 0 names a process group, never a renderer');
    assert.equal(isAlive(-1), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
