/**
 * The SQLite queue's loop against a scripted job store: it keeps at most `slots` rows in hand
 * (the rows' share of the pool), takes more as rows finish, and a stop waits for the rows in
 * progress. The store itself is tested on both adapters (test/store/job-store-suite.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClaimedRow, JobStore } from '../../src/core/jobs/job-types.js';
import { createSqliteQueue } from '../../src/core/jobs/sqlite-queue.js';

function scriptedStore(rows: number) {
  const waiting = Array.from({ length: rows }, (_, i): ClaimedRow => ({ jobId: 'job', row: i + 1, attempt: 1, input: {} }));
  const store = {
    claimRows: async (limit: number) => waiting.splice(0, limit),
    claimWebhooks: async () => [],
  } as unknown as JobStore;
  return { store, left: () => waiting.length };
}

test('at most `slots` rows at once, more as rows finish, every row taken', async () => {
  const { store, left } = scriptedStore(20);
  let active = 0;
  let most = 0;
  const finished: number[] = [];
  let allDone!: () => void;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const queue = createSqliteQueue({ jobs: store, slots: 3, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(claim) {
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      finished.push(claim.row);
      if (finished.length === 20) allDone();
    },
    webhook: async () => undefined,
    rowSeenFinished: async () => undefined,
  });
  // The first look happens at start; the rest follow from rows finishing, not from the (long) poll.
  await done;
  await queue.stop();
  assert.equal(most, 3);
  assert.equal(left(), 0);
  assert.deepEqual([...finished].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
});

test('a stop while rows are in hand resolves only after they finish', async () => {
  const { store } = scriptedStore(2);
  const finished: number[] = [];
  let started = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let bothStarted!: () => void;
  const inHand = new Promise<void>((resolve) => (bothStarted = resolve));
  const queue = createSqliteQueue({ jobs: store, slots: 2, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(claim) {
      if (++started === 2) bothStarted();
      await gate;
      finished.push(claim.row);
    },
    webhook: async () => undefined,
    rowSeenFinished: async () => undefined,
  });
  await inHand;
  let resolved = false;
  const stopped = queue.stop().then(() => {
    resolved = true;
    return [...finished];
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(resolved, false, 'stop returned with rows still in hand');
  release();
  assert.deepEqual((await stopped).sort(), [1, 2]);
});
