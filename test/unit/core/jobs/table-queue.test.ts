/**
 * The table queue's loop against a scripted job store: it renders at most `slots` rows at once
 * (the rows' share of the pool), keeps one more claimed for the next slot that frees (given back
 * at a stop), takes more as rows finish, gives slots to teams in turn,
 * limits each team's webhook deliveries, and a stop waits for the rows in progress. The store
 * itself is tested on both adapters (test/store/job-store-suite.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClaimedRow, DueWebhook, JobStore, TeamClaim } from '../../../../src/core/jobs/job-types.js';
import { teamsInTurn } from '../../../../src/core/store/job-records.js';
import { createTableQueue, WEBHOOKS_PER_TEAM } from '../../../../src/core/jobs/table-queue.js';

/** Rows of teams (team -> row count), each team's rows in order; due webhooks likewise. */
function scriptedStore(rowsOf: Record<number, number>, webhooksOf: Record<number, number> = {}) {
  const waiting = new Map(Object.entries(rowsOf).map(([team, n]) => [Number(team), Array.from({ length: n }, (_, i): ClaimedRow => ({ jobId: `job-${team}`, row: i + 1, attempt: 1, input: {} }))]));
  const due = new Map(Object.entries(webhooksOf).map(([team, n]) => [Number(team), Array.from({ length: n }, (_, i): DueWebhook => ({ jobId: `hook-${team}-${i + 1}`, teamId: Number(team), attempt: 1 }))]));
  const released: { row: number; afterMs: number }[] = [];
  const store = {
    renewRow: async () => true,
    // Back to the front of its team's rows, as the table puts it back to queued.
    releaseRow: async (claim: ClaimedRow, afterMs: number) => {
      released.push({ row: claim.row, afterMs });
      waiting.get(Number(claim.jobId.slice('job-'.length)))!.unshift(claim);
    },
    // A round a team, as the stores take rows (one row of each team with work, then a second...).
    claimInTurn: async (limit: number, _lease: number, served: readonly number[]) => {
      const claimed: TeamClaim[] = [];
      let open = teamsInTurn([...waiting].filter(([, rows]) => rows.length > 0).map(([team]) => team), served);
      while (claimed.length < limit && open.length > 0) {
        for (const team of open) if (claimed.length < limit && waiting.get(team)!.length > 0) claimed.push({ ...waiting.get(team)!.shift()!, teamId: team });
        open = open.filter((team) => waiting.get(team)!.length > 0);
      }
      return claimed;
    },
    claimWebhooks: async (limit: number, _lease: number, skip: number[]) =>
      [...due]
        .filter(([team, hooks]) => !skip.includes(team) && hooks.length > 0)
        .slice(0, limit)
        .map(([, hooks]) => hooks.shift()!),
  } as unknown as JobStore;
  return { store, released, left: () => [...waiting.values()].reduce((n, rows) => n + rows.length, 0) };
}
const scriptedStoreOf = (rows: number) => scriptedStore({ 1: rows });

test('at most `slots` rows at once, more as rows finish, every row taken', async () => {
  const { store, left } = scriptedStoreOf(20);
  let active = 0;
  let most = 0;
  const finished: number[] = [];
  let allDone!: () => void;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const queue = createTableQueue({ jobs: store, slots: 3, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
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
  });
  // The first look happens at start; the rest follow from rows finishing, not from the (long) poll.
  await done;
  await queue.stop();
  assert.equal(most, 3);
  assert.equal(left(), 0);
  assert.deepEqual([...finished].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
});

test('a stop while rows are in hand resolves only after they finish', async () => {
  const { store } = scriptedStoreOf(2);
  const finished: number[] = [];
  let started = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let bothStarted!: () => void;
  const inHand = new Promise<void>((resolve) => (bothStarted = resolve));
  const queue = createTableQueue({ jobs: store, slots: 2, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(claim) {
      if (++started === 2) bothStarted();
      await gate;
      finished.push(claim.row);
    },
    webhook: async () => undefined,
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

test("a row's slot takes the next row once its render ends, while its outcome is recorded; at most `slots` rows recording", async () => {
  const { store, left } = scriptedStoreOf(10);
  let rendering = 0;
  let mostRendering = 0;
  let started = 0;
  let recorded = 0;
  let openRecords!: () => void;
  const recordsOpen = new Promise<void>((resolve) => (openRecords = resolve));
  let fourRendered!: () => void;
  const fourDone = new Promise<void>((resolve) => (fourRendered = resolve));
  let allDone!: () => void;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  let renderedCount = 0;
  const queue = createTableQueue({ jobs: store, slots: 2, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(_claim, rendered) {
      started++;
      rendering++;
      mostRendering = Math.max(mostRendering, rendering);
      await new Promise((resolve) => setTimeout(resolve, 2));
      rendering--;
      rendered();
      if (++renderedCount === 4) fourRendered();
      // Recording (the PDF kept, the outcome written) is held until the test opens it.
      await recordsOpen;
      if (++recorded === 10) allDone();
    },
    webhook: async () => undefined,
  });
  await fourDone;
  // Nothing more starts while four rows wait to be recorded: 2 slots, at most 2 more recording.
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(started, 4, 'rows 3 and 4 rendered while 1 and 2 were recorded, and no more than that');
  openRecords();
  await done;
  await queue.stop();
  assert.equal(mostRendering, 2);
  assert.equal(left(), 0);
});

test('a row in hand: the next row is claimed while the first renders, takes the slot the moment that render ends, and a stop gives the row in hand back', async () => {
  const { store, released, left } = scriptedStoreOf(4);
  const started: number[] = [];
  const renders: (() => void)[] = [];
  let rowStarted!: () => void;
  let nextStart = new Promise<void>((resolve) => (rowStarted = resolve));
  const queue = createTableQueue({ jobs: store, slots: 1, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(claim, rendered) {
      started.push(claim.row);
      rowStarted();
      // The render ends when the test says so; recording is instant.
      await new Promise<void>((resolve) => renders.push(resolve));
      rendered();
    },
    webhook: async () => undefined,
  });
  await nextStart;
  // Row 1 renders, and row 2 is claimed meanwhile (the claim is a round trip: wait for it).
  const deadline = Date.now() + 5_000;
  while (left() > 2) {
    assert.ok(Date.now() < deadline, 'row 2 was not claimed while row 1 rendered');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.deepEqual(started, [1], 'one slot: one row renders');
  nextStart = new Promise<void>((resolve) => (rowStarted = resolve));
  renders.shift()!();
  await nextStart;
  assert.deepEqual(started, [1, 2]);
  // Row 3 comes into the hand while row 2 renders; a stop then gives it back at once (no wait) and lets row 2 finish.
  while (left() > 1) {
    assert.ok(Date.now() < deadline, 'row 3 was not claimed while row 2 rendered');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const stopped = queue.stop();
  renders.shift()!();
  await stopped;
  assert.deepEqual(started, [1, 2], 'nothing starts after the stop');
  assert.deepEqual(released, [{ row: 3, afterMs: 0 }]);
  assert.equal(left(), 2, 'rows 3 and 4 wait in the table for the next start');
});

test("slots go to teams in turn: a 5-row job is not held behind another team's 200 rows", async () => {
  const { store } = scriptedStore({ 2: 200, 1: 5 });
  const order: string[] = [];
  let allOfA!: () => void;
  const aDone = new Promise<void>((resolve) => (allOfA = resolve));
  const queue = createTableQueue({ jobs: store, slots: 2, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    async row(claim) {
      order.push(claim.jobId);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (order.filter((job) => job === 'job-1').length === 5) allOfA();
    },
    webhook: async () => undefined,
  });
  await aDone;
  await queue.stop();
  const lastOfA = order.lastIndexOf('job-1');
  // Alternating: A's 5th row is at most the 10th row taken (plus the slots' head start).
  assert.ok(lastOfA < 12, `team 1's last row was the ${lastOfA + 1}th taken: ${order.slice(0, 20).join(' ')}`);
});

test("a team's deliveries are limited: another team's webhook goes out while the first team's hang", async () => {
  const { store } = scriptedStore({}, { 2: 24, 1: 1 });
  const inFlight = new Map<number, number>();
  let most = 0;
  let hung!: () => void;
  const hang = new Promise<void>((resolve) => (hung = resolve));
  let aSent!: () => void;
  const aDelivered = new Promise<void>((resolve) => (aSent = resolve));
  const queue = createTableQueue({ jobs: store, slots: 1, leaseMs: 60_000, pollMs: 10_000, onError: (error) => assert.fail(String(error)) });
  await queue.start({
    row: async () => undefined,
    async webhook(due) {
      inFlight.set(due.teamId, (inFlight.get(due.teamId) ?? 0) + 1);
      most = Math.max(most, inFlight.get(2) ?? 0);
      if (due.teamId === 1) aSent();
      else await hang;
      inFlight.set(due.teamId, inFlight.get(due.teamId)! - 1);
    },
  });
  await aDelivered;
  assert.equal(most, WEBHOOKS_PER_TEAM, "team 2's deliveries in flight never passed its limit");
  hung();
  await queue.stop();
});
