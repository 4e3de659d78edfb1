/** The pool's pure parts: settings, and admission (bounded pages at work, bounded queue, BUSY). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../../src/core/errors.js';
import { createGate, retryAfterSeconds } from '../../../../src/core/render/pool-gate.js';
import { resolvePoolSettings } from '../../../../src/core/render/pool-options.js';

describe('resolvePoolSettings', () => {
  test('defaults follow the concurrency the caller passes', () => {
    const settings = resolvePoolSettings({ concurrency: 4 });
    assert.deepEqual(settings, { concurrency: 4, maxQueue: 200, restartAfterRenders: 2000, pageRecycleAfter: 1000, pageHeapGrowthLimitMiB: 64, warmPages: 8, idleShutdownMs: 300_000, killOnClose: false, openAhead: false });
    assert.equal(resolvePoolSettings().concurrency, 1);
  });

  test('nonsense is refused', () => {
    assert.throws(() => resolvePoolSettings({ concurrency: 0 }), RangeError);
    assert.throws(() => resolvePoolSettings({ concurrency: 1.5 }), RangeError);
    assert.throws(() => resolvePoolSettings({ maxQueue: -1 }), RangeError);
    assert.equal(resolvePoolSettings({ maxQueue: 0, idleShutdownMs: 0 }).maxQueue, 0);
  });
});

describe('gate', () => {
  /** Work that finishes when the test says so. */
  function controllable() {
    const releases: (() => void)[] = [];
    const work = () => new Promise<string>((resolve) => releases.push(() => resolve('done')));
    return { work, releaseAll: () => releases.splice(0).forEach((release) => release()), started: () => releases.length };
  }

  test('at most `concurrency` at work, `maxQueue` waiting, the next refused with BUSY and a retry time', async () => {
    const gate = createGate({ concurrency: 2, maxQueue: 1, typicalRenderMs: () => 1500 });
    const jobs = controllable();
    const admitted = [gate.run(jobs.work), gate.run(jobs.work), gate.run(jobs.work)];
    await assert.rejects(gate.run(jobs.work), (error: unknown) => {
      assert.ok(error instanceof ImprintError);
      assert.equal(error.code, 'BUSY');
      assert.equal(error.httpStatus, 429);
      assert.equal(error.retryAfterSeconds, 2);
      return true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(jobs.started(), 2, 'two at work');
    assert.equal(gate.queued, 1);
    jobs.releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(jobs.started(), 1, 'the queued one started once a place was free');
    jobs.releaseAll();
    assert.deepEqual(await Promise.all(admitted), ['done', 'done', 'done']);
    assert.equal(gate.active + gate.queued, 0);
  });

  test('raising the concurrency lets waiting work start', async () => {
    const gate = createGate({ concurrency: 1, maxQueue: 5, typicalRenderMs: () => 100 });
    const jobs = controllable();
    const admitted = [gate.run(jobs.work), gate.run(jobs.work), gate.run(jobs.work)];
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(jobs.started(), 1);
    gate.setConcurrency(3);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(jobs.started(), 3);
    jobs.releaseAll();
    await Promise.all(admitted);
  });

  test('Retry-After: the queue ahead drained by every page, at least a second', () => {
    assert.equal(retryAfterSeconds(0, 2, 40), 1);
    assert.equal(retryAfterSeconds(99, 2, 40), 2);
    assert.equal(retryAfterSeconds(99, 1, 500), 50);
  });
});
