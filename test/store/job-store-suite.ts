/**
 * The job store's rules (core/jobs/job-types.ts), run against both store adapters through the
 * port: a job takes all its units at submit or none; a row finishes once, by its latest claim;
 * a failed or cancelled row gives its unit back to the month it was taken from; claims and
 * submits from several connections at once never double a row or pass the limit.
 */
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSpec } from '../../src/core/jobs/job-types.js';
import type { Store } from '../../src/core/store/index.js';
import { isError, manualClock, type StoreAdapter, type StoreEnv } from './store-suite.js';

const SPEC: JobSpec = { kind: 'generate', options: { format: 'pdf' } as JobSpec['options'] };
const LEASE = 60_000;
let serial = 0;
const newId = () => `job-${process.pid}-${++serial}`;
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ html: `<p>${i + 1}</p>` }));
const ok = (row: number) => ({ ok: true as const, name: `${row}.pdf`, token: `token-${row}`, expiresAt: '2025-01-16T12:00:00.000Z' });
const failure = { ok: false as const, error: 'the template threw', code: 'RENDER_FAILED' };

export function jobStoreSuite(adapter: StoreAdapter): void {
  let env: StoreEnv;
  let clock: ReturnType<typeof manualClock>;
  let store: Store;

  beforeEach(async () => {
    env = await adapter.fresh();
    clock = manualClock('2025-01-15T12:00:00.000Z');
    store = await env.open(clock.now);
  });

  afterEach(async () => {
    await store.close();
    await env.remove();
  });

  describe(`${adapter.name}: jobs`, () => {
    test('a job takes all its units at submit, or none: over the limit it is refused and nothing is stored', async () => {
      const team = await store.createTeam('acme', 5);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(3) });
      assert.deepEqual([job.status, job.total, job.done, job.failed, job.cancelled], ['queued', 3, 0, 0, 0]);
      assert.equal(await store.usage(team.id), 3);
      const refusedId = newId();
      await assert.rejects(store.jobs.createJob({ id: refusedId, teamId: team.id, spec: SPEC, rows: rows(3) }), isError('LIMIT_EXCEEDED', /3 rows.*2 of its 5/));
      assert.equal(await store.jobs.jobById(refusedId), undefined);
      assert.equal(await store.usage(team.id), 3);
      assert.equal((await store.jobs.listJobs(team.id, 10)).length, 1);
    });

    test('rows finish once, by their latest claim: done keeps its unit, failed gives it back; the last row settles the job', async () => {
      const team = await store.createTeam('acme', 10);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: { ...SPEC, webhookUrl: 'https://example.org/hook' }, rows: rows(3) });
      const claimed = await store.jobs.claimInTurn(10, LEASE, []);
      assert.deepEqual(claimed.map((c) => [c.row, c.attempt]), [[1, 1], [2, 1], [3, 1]]);
      assert.deepEqual(claimed[1].input, { html: '<p>2</p>' });
      assert.equal((await store.jobs.jobById(job.id))!.status, 'running');
      assert.deepEqual(await store.jobs.claimInTurn(10, LEASE, []), [], 'claimed rows are not handed out again while their lease runs');

      assert.deepEqual(await store.jobs.finishRow(claimed[0], ok(1)), { applied: true, finishedJob: undefined });
      assert.equal((await store.jobs.finishRow(claimed[0], ok(1))).applied, false, 'a row finishes once');
      assert.equal((await store.jobs.finishRow(claimed[1], failure)).applied, true);
      assert.equal(await store.usage(team.id), 2);

      // Row 3's claimer stops answering: once its lease has run out, another claim takes it,
      // and only that claim may finish it.
      clock.advance(LEASE + 1);
      const [again] = await store.jobs.claimInTurn(10, LEASE, []);
      assert.deepEqual([again.row, again.attempt], [3, 2]);
      assert.equal((await store.jobs.finishRow(claimed[2], ok(3))).applied, false, 'a stale claim cannot finish the row');
      const last = await store.jobs.finishRow(again, ok(3));
      assert.equal(last.applied, true);
      assert.deepEqual([last.finishedJob?.status, last.finishedJob?.done, last.finishedJob?.failed], ['failed', 2, 1]);
      assert.equal(await store.usage(team.id), 2);

      const stored = await store.jobs.rows(job.id);
      assert.deepEqual(stored.map((r) => [r.row, r.state, r.token, r.code]), [[1, 'done', 'token-1', null], [2, 'failed', null, 'RENDER_FAILED'], [3, 'done', 'token-3', null]]);
      assert.deepEqual(await store.jobs.claimInTurn(10, LEASE, []), [], 'finished rows are never claimed again');
      // Its webhook is now due, once.
      const due = await store.jobs.claimWebhooks(5, LEASE);
      assert.deepEqual(due, [{ jobId: job.id, teamId: team.id, attempt: 1 }]);
      assert.deepEqual(await store.jobs.claimWebhooks(5, LEASE), []);
      await store.jobs.recordWebhookAttempt(job.id, { at: clock.now().toISOString(), ok: false, status: 500, error: 'the receiver answered 500' }, new Date(clock.now().getTime() + 1000).toISOString());
      assert.deepEqual(await store.jobs.claimWebhooks(5, LEASE), [], 'not due before its time');
      clock.advance(1000);
      assert.deepEqual(await store.jobs.claimWebhooks(5, LEASE), [{ jobId: job.id, teamId: team.id, attempt: 2 }]);
      await store.jobs.recordWebhookAttempt(job.id, { at: clock.now().toISOString(), ok: true, status: 204 }, undefined);
      const final = (await store.jobs.jobById(job.id))!;
      assert.deepEqual(final.webhook?.attempts.map((a) => a.status), [500, 204]);
      assert.equal(final.webhook?.delivered, true);
    });

    test('a released row waits for its pause, then is claimed again with the next attempt', async () => {
      const team = await store.createTeam('acme', 10);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(1) });
      const [first] = await store.jobs.claimInTurn(5, LEASE, []);
      assert.equal(first.attempt, 1);
      assert.deepEqual(await store.jobs.claimInTurn(5, LEASE, []), [], 'held while its claim runs');
      await store.jobs.releaseRow(first, 2000);
      assert.deepEqual(await store.jobs.claimInTurn(5, LEASE, []), [], 'held until its pause is over');
      clock.advance(2000);
      const [second] = await store.jobs.claimInTurn(5, LEASE, []);
      assert.equal(second.attempt, 2);
      assert.equal((await store.jobs.finishRow(first, ok(1))).applied, false, 'an older claim cannot finish it');
      await store.jobs.finishRow(second, ok(1));
      assert.equal((await store.jobs.jobById(job.id))!.status, 'completed');
    });

    test('a renewed lease keeps a row from a second claim; only its claim may renew it', async () => {
      const team = await store.createTeam('acme', 10);
      await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(1) });
      const [first] = await store.jobs.claimInTurn(5, LEASE, []);
      clock.advance(LEASE - 1000);
      assert.equal(await store.jobs.renewRow(first, LEASE), true);
      clock.advance(LEASE - 1000);
      assert.deepEqual(await store.jobs.claimInTurn(5, LEASE, []), [], 'renewed: still its first claim');
      clock.advance(2000);
      const [second] = await store.jobs.claimInTurn(5, LEASE, []);
      assert.equal(second.attempt, 2, 'not renewed in time: claimed again');
      assert.equal(await store.jobs.renewRow(first, LEASE), false, 'the older claim cannot renew it');
    });

    test('due webhooks: one per team per claim, teams at their limit skipped, earliest first', async () => {
      const a = await store.createTeam('a', 100);
      const b = await store.createTeam('b', 100);
      const hook = { ...SPEC, webhookUrl: 'https://example.org/hook' };
      const finish = async (teamId: number) => {
        const job = await store.jobs.createJob({ id: newId(), teamId, spec: hook, rows: rows(1) });
        const [claim] = await store.jobs.claimInTurn(1, LEASE, []);
        await store.jobs.finishRow(claim, failure);
        clock.advance(10);
        return job.id;
      };
      const bJobs = [await finish(b.id), await finish(b.id), await finish(b.id)];
      const aJob = await finish(a.id);
      const first = await store.jobs.claimWebhooks(10, LEASE);
      assert.deepEqual(first.map((d) => d.jobId), [bJobs[0], aJob], "team b's earliest, then a's: never all of b's first");
      assert.deepEqual((await store.jobs.claimWebhooks(10, LEASE, [b.id])).map((d) => d.jobId), [], 'b skipped, a has none left');
      assert.deepEqual((await store.jobs.claimWebhooks(10, LEASE)).map((d) => d.jobId), [bJobs[1]]);
    });

    test("an event's body is frozen by the first writer", async () => {
      const team = await store.createTeam('acme', 10);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: { ...SPEC, webhookUrl: 'https://example.org/hook' }, rows: rows(1) });
      assert.equal((await store.jobs.jobById(job.id))!.webhook?.event, null);
      assert.equal(await store.jobs.freezeWebhookEvent(job.id, '{"first":1}'), '{"first":1}');
      assert.equal(await store.jobs.freezeWebhookEvent(job.id, '{"second":2}'), '{"first":1}');
      assert.equal((await store.jobs.jobById(job.id))!.webhook?.event, '{"first":1}');
    });

    test('a failure message with a NUL byte is recorded (as U+FFFD): the row ends failed, its unit back', async () => {
      const team = await store.createTeam('acme', 10);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: [{ html: 'a\u0000b' }] });
      const [claim] = await store.jobs.claimInTurn(1, LEASE, []);
      assert.deepEqual(claim.input, { html: 'a\u0000b' }, 'a NUL in a row input survives the store');
      const finished = await store.jobs.finishRow(claim, { ok: false, error: 'the template threw: bad\u0000byte', code: 'RENDER_FAILED' });
      assert.equal(finished.applied, true);
      assert.equal(finished.finishedJob?.status, 'failed');
      const [row] = await store.jobs.rows(job.id);
      assert.deepEqual([row.state, row.error], ['failed', 'the template threw: bad\uFFFDbyte']);
      assert.equal(await store.usage(team.id), 0);
    });

    test('a spec holding NUL (a name pattern, a webhook URL) is stored as U+FFFD: PostgreSQL reads it as jsonb when a row finishes, and the row finishes', async () => {
      const team = await store.createTeam('acme', 10);
      const spec = { ...SPEC, name: 'x\u0000y', webhookUrl: 'https://example.org/\u0000' } as JobSpec;
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec, rows: rows(1) });
      const [claim] = await store.jobs.claimInTurn(1, LEASE, []);
      const finished = await store.jobs.finishRow(claim!, ok(1));
      assert.equal(finished.applied, true);
      assert.equal(finished.finishedJob?.status, 'completed');
      assert.equal((await store.jobs.jobById(job.id))!.spec.name, 'x\uFFFDy');
    });

    test('cancel gives back the rows not started; rows in progress finish; then the job is cancelled', async () => {
      const team = await store.createTeam('acme', 10);
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(5) });
      const [running] = await store.jobs.claimInTurn(1, LEASE, []);
      const other = await store.createTeam('other', 10);
      assert.equal(await store.jobs.cancelJob(other.id, job.id), undefined, "another team's job is not found");
      const cancelled = (await store.jobs.cancelJob(team.id, job.id))!;
      assert.equal(cancelled.cancelledRows, 4);
      assert.equal(cancelled.finishedJob, undefined, 'a row is still running');
      assert.deepEqual([cancelled.job.status, cancelled.job.cancelled], ['running', 4]);
      assert.equal(await store.usage(team.id), 1);
      assert.deepEqual(await store.jobs.claimInTurn(10, LEASE, []), []);
      const last = await store.jobs.finishRow(running, ok(1));
      assert.deepEqual([last.finishedJob?.status, last.finishedJob?.done, last.finishedJob?.cancelled], ['cancelled', 1, 4]);
      assert.equal(await store.usage(team.id), 1);
      assert.equal((await store.jobs.cancelJob(team.id, job.id))!.cancelledRows, 0);
    });

    test("a test key's job takes no units, even past the limit, and gives none back for failed or cancelled rows", async () => {
      const team = await store.createTeam('acme', 3);
      await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(2) });
      const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: { ...SPEC, test: true }, rows: rows(4) });
      assert.equal(job.total, 4);
      assert.equal(await store.usage(team.id), 2, 'four rows past a limit of 3 with 1 left: taken nothing, refused nothing');
      const claimed = (await store.jobs.claimInTurn(10, LEASE, [])).filter((claim) => claim.jobId === job.id);
      assert.equal(claimed.length, 4);
      assert.equal((await store.jobs.finishRow(claimed[0], ok(1))).applied, true);
      assert.equal((await store.jobs.finishRow(claimed[1], failure)).applied, true);
      assert.equal(await store.usage(team.id), 2, "the live job's units stay taken");
      const other = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: { ...SPEC, test: true }, rows: rows(3) });
      assert.equal((await store.jobs.cancelJob(team.id, other.id))!.cancelledRows, 3);
      assert.equal(await store.usage(team.id), 2);
    });

    test("a rendered row counts on its team's day (the dashboard's chart) once; a failed row, a late claim's finish and a test key's row do not", async () => {
      const team = await store.createTeam('acme', 10);
      const live = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(3) });
      const test = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: { ...SPEC, test: true }, rows: rows(1) });
      const claims = await store.jobs.claimInTurn(10, LEASE, []);
      const of = (jobId: string, row: number) => claims.find((claim) => claim.jobId === jobId && claim.row === row)!;
      await store.jobs.finishRow(of(live.id, 1), ok(1));
      assert.equal((await store.jobs.finishRow(of(live.id, 1), ok(1))).applied, false);
      await store.jobs.finishRow(of(live.id, 2), failure);
      await store.jobs.finishRow(of(test.id, 1), ok(1));
      clock.set('2025-01-16T00:00:01.000Z');
      await store.jobs.finishRow(of(live.id, 3), ok(3));
      assert.deepEqual(await store.dashboard.dailyUsage(team.id, '2025-01-01'), [
        { day: '2025-01-15', count: 1 },
        { day: '2025-01-16', count: 1 },
      ]);
    });

    test('a unit is given back to the month it was taken from', async () => {
      clock.set('2025-01-31T23:59:00.000Z');
      const team = await store.createTeam('acme', 10);
      await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(2) });
      const claimed = await store.jobs.claimInTurn(2, LEASE, []);
      clock.set('2025-02-01T00:01:00.000Z');
      await store.jobs.finishRow(claimed[0], failure);
      await store.jobs.finishRow(claimed[1], ok(2));
      assert.equal(await store.usage(team.id, '2025-01'), 1);
      assert.equal(await store.usage(team.id, '2025-02'), 0);
    });

    test('jobs are listed newest first, a page at a time, each team its own', async () => {
      const team = await store.createTeam('acme', 100);
      const other = await store.createTeam('other', 100);
      const ids = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        ids.push((await store.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(1) })).id);
      }
      await store.jobs.createJob({ id: newId(), teamId: other.id, spec: SPEC, rows: rows(1) });
      const first = await store.jobs.listJobs(team.id, 2);
      assert.deepEqual(first.map((j) => j.id), [ids[4], ids[3]]);
      const second = await store.jobs.listJobs(team.id, 2, ids[3]);
      assert.deepEqual(second.map((j) => j.id), [ids[2], ids[1]]);
      assert.deepEqual((await store.jobs.listJobs(team.id, 10, ids[0])).length, 0);
      assert.equal(await store.jobs.getJob(other.id, ids[0]), undefined);
      assert.equal(await store.jobs.queueDepth(), 6);
    });

    test("a test key's listing (issue 41): its team's test jobs only, a page at a time; a live job is no cursor for it", async () => {
      const team = await store.createTeam('acme', 100);
      const made: { id: string; test: boolean }[] = [];
      for (const test of [false, true, false, true, true, false]) {
        clock.advance(1000);
        const job = await store.jobs.createJob({ id: newId(), teamId: team.id, spec: test ? { ...SPEC, test: true } : SPEC, rows: rows(1) });
        made.push({ id: job.id, test });
      }
      const tests = made.filter((job) => job.test).map((job) => job.id).reverse();
      assert.deepEqual((await store.jobs.listJobs(team.id, 10, undefined, true)).map((j) => j.id), tests);
      assert.deepEqual((await store.jobs.listJobs(team.id, 2, undefined, true)).map((j) => j.id), tests.slice(0, 2));
      assert.deepEqual((await store.jobs.listJobs(team.id, 2, tests[1], true)).map((j) => j.id), tests.slice(2));
      assert.deepEqual(await store.jobs.listJobs(team.id, 10, made[5].id, true), [], 'a live job as the cursor');
      assert.equal((await store.jobs.listJobs(team.id, 10)).length, 6, 'a live key lists every job');
    });

    test('claims in turn: a row of each team a round, teams never served first, then least recently served; each team oldest job first', async () => {
      const [a, b, c] = [await store.createTeam('a', 100), await store.createTeam('b', 100), await store.createTeam('c', 100)];
      const aOld = await store.jobs.createJob({ id: newId(), teamId: a.id, spec: SPEC, rows: rows(2) });
      clock.advance(1);
      const aNew = await store.jobs.createJob({ id: newId(), teamId: a.id, spec: SPEC, rows: rows(3) });
      const ofB = await store.jobs.createJob({ id: newId(), teamId: b.id, spec: SPEC, rows: rows(1) });
      const ofC = await store.jobs.createJob({ id: newId(), teamId: c.id, spec: SPEC, rows: rows(4) });
      const taken = (claims: { teamId: number; jobId: string; row: number; attempt: number }[]) => claims.map((x) => [x.teamId, x.jobId, x.row, x.attempt]);
      // Served: c, then a (a most recently); b never: b first, then c, then a.
      assert.deepEqual(taken(await store.jobs.claimInTurn(4, LEASE, [c.id, a.id])), [
        [b.id, ofB.id, 1, 1],
        [c.id, ofC.id, 1, 1],
        [a.id, aOld.id, 1, 1],
        [c.id, ofC.id, 2, 1],
      ]);
      // b has nothing left: a round of a and c, then a second; a's older job first, then its newer.
      assert.deepEqual(taken(await store.jobs.claimInTurn(5, LEASE, [b.id, a.id, c.id])), [
        [a.id, aOld.id, 2, 1],
        [c.id, ofC.id, 3, 1],
        [a.id, aNew.id, 1, 1],
        [c.id, ofC.id, 4, 1],
        [a.id, aNew.id, 2, 1],
      ]);
      assert.deepEqual(taken(await store.jobs.claimInTurn(5, LEASE, [])), [[a.id, aNew.id, 3, 1]]);
      assert.deepEqual(await store.jobs.claimInTurn(5, LEASE, []), [], 'every row is held');
      clock.advance(LEASE);
      assert.equal((await store.jobs.claimInTurn(20, LEASE, [])).length, 10, 'leases run out: every unfinished row again');
      assert.equal((await store.jobs.jobById(ofB.id))!.status, 'running', 'a claim marks its job started');
    });

    test('at the same time from 3 connections: submits never pass the limit, and every row is claimed once', async () => {
      const team = await store.createTeam('crowd', 10);
      const others = [await env.open(clock.now), await env.open(clock.now)];
      try {
        const stores = [store, ...others];
        const submits = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => stores[i % 3]!.jobs.createJob({ id: newId(), teamId: team.id, spec: SPEC, rows: rows(3) })));
        const accepted = submits.filter((r) => r.status === 'fulfilled');
        for (const r of submits) if (r.status === 'rejected') assert.equal(r.reason.code, 'LIMIT_EXCEEDED', String(r.reason));
        assert.equal(accepted.length, 3);
        assert.equal(await store.usage(team.id), 9);
        // Twelve claims at once from three connections, as nodes make them. On PostgreSQL a claim
        // can hold a row locked that it does not take (it locks each job's first rows, then keeps
        // the first two of all): a claimer running beside it skips that row, which the next
        // claim takes, as a node's next poll does. No row may be handed out twice, none lost.
        const burst = (await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 3]!.jobs.claimInTurn(2, LEASE, [])))).flat();
        const claims = [...burst, ...(await store.jobs.claimInTurn(9, LEASE, []))];
        assert.ok(burst.length >= 2, `the burst claimed only ${burst.length} of 9 rows`);
        assert.equal(claims.length, 9);
        assert.equal(new Set(claims.map((c) => `${c.jobId}:${c.row}`)).size, 9, 'no row handed to two claimers');
        // Each finished twice at once: applied once.
        const finished = await Promise.all(claims.flatMap((c, i) => [stores[i % 3]!.jobs.finishRow(c, failure), stores[(i + 1) % 3]!.jobs.finishRow(c, failure)]));
        assert.equal(finished.filter((f) => f.applied).length, 9);
        assert.equal(finished.filter((f) => f.finishedJob).length, 3, 'each job settles once');
        assert.equal(await store.usage(team.id), 0);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });
  });
}
