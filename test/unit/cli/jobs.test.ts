/**
 * The CLI's side of jobs, its pure parts: which rows go into a job, how a job row maps back to
 * the input's row and file, the progress words, and the follow loop driven by a scripted
 * service (a fake client: the loop's decisions are what is tested here; the real service is
 * test/e2e/jobs-cli.test.ts's).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError, ApiUnreachableError } from '../../../src/client/errors.js';
import type { JobDetails, JobStreamEvent } from '../../../src/client/job-types.js';
import type { BatchRow } from '../../../src/cli/batch/read-rows.js';
import { explainRemoteError } from '../../../src/backend/remote-errors.js';
import { asGenerateRow } from '../../../src/cli/commands/generate-batch.js';
import { followJob, nextPollDelay, rowIdentity, type FollowCounts, type FollowDeps, type FollowPlan } from '../../../src/cli/jobs/follow-job.js';
import { planJob } from '../../../src/cli/jobs/job-plan.js';
import { jobProgressText, jobRate, tenthOf } from '../../../src/cli/jobs/job-progress-text.js';

const rows = (...props: (Record<string, unknown> | string)[]): BatchRow[] =>
  props.map((p, i) => (typeof p === 'string' ? { row: i + 1, line: i + 1, problem: p } : { row: i + 1, line: i + 1, props: p }));

describe('planJob', () => {
  test('rows already there (--skip-existing) and bad rows stay out; the rest keep their input row and name, in order', () => {
    const input = rows({ n: 'a' }, { n: 'b' }, 'line 3 is not valid JSON', { n: 'c' }, { x: 1 }, { n: 'a' });
    const plan = planJob(input, '{{n}}.pdf', true, (name) => name === 'b.pdf');
    assert.deepEqual(plan.submitted, [
      { row: 1, name: 'a.pdf', props: { n: 'a' } },
      { row: 4, name: 'c.pdf', props: { n: 'c' } },
    ]);
    assert.deepEqual(
      plan.settled.map(({ row, status }) => [row, status]),
      [[2, 'skipped'], [3, 'failed'], [5, 'failed'], [6, 'failed']],
    );
    assert.match(plan.settled.find((r) => r.row === 6)!.error!, /already row 1's/);
  });

  test('{{$row}} names are the input row numbers even when earlier rows are left out', () => {
    const plan = planJob(rows({}, {}, {}, {}), '{{$row}}.pdf', true, (name) => name === '1.pdf' || name === '2.pdf');
    assert.deepEqual(plan.submitted.map(({ row, name }) => [row, name]), [[3, '3.pdf'], [4, '4.pdf']]);
  });

  test('without --skip-existing every good row is sent, its file overwritten', () => {
    const plan = planJob(rows({ n: 'a' }), '{{n}}.pdf', false, () => true);
    assert.equal(plan.submitted.length, 1);
    assert.equal(plan.settled.length, 0);
  });
});

describe('rowIdentity', () => {
  const names = [{ row: 3, name: 'c.pdf' }, { row: 7, name: 'g.pdf' }];
  test('job row n is the submitting run\'s n-th row (from 1)', () => {
    assert.deepEqual(rowIdentity({ row: 2, name: 'server.pdf' }, names), { row: 7, name: 'g.pdf' });
  });
  test('without the note, the service\'s name, kept to one file name in the folder', () => {
    assert.deepEqual(rowIdentity({ row: 2, name: 'b.pdf' }, undefined), { row: 2, name: 'b.pdf' });
    assert.deepEqual(rowIdentity({ row: 2, name: '../../etc/evil.pdf' }, undefined), { row: 2, name: 'evil.pdf' });
    assert.deepEqual(rowIdentity({ row: 4, name: '..' }, undefined), { row: 4, name: '4.pdf' });
    assert.deepEqual(rowIdentity({ row: 5 }, undefined), { row: 5, name: '5.pdf' });
  });
});

describe('progress words', () => {
  const counts = (over: Partial<FollowCounts>): FollowCounts => ({ total: 100, done: 0, failed: 0, downloaded: 0, kept: 0, finishedBefore: 0, ...over });
  test('count, failures, downloads, rate and time left', () => {
    assert.equal(jobProgressText(counts({ done: 40, failed: 2, downloaded: 38 }), 10_000), '42/100 rendered (2 failed) · 38 downloaded · 4.2 docs/s · ETA 14 s');
  });
  test('rows finished before this run looked are not in the rate', () => {
    assert.equal(jobRate(counts({ done: 60, finishedBefore: 50 }), 5_000), 2);
    assert.equal(jobRate(counts({ done: 50, finishedBefore: 50 }), 5_000), 0);
    assert.match(jobProgressText(counts({ done: 50, finishedBefore: 50, kept: 50 }), 1000), /^50\/100 rendered · 0 downloaded, 50 already there · 0\.0 docs\/s$/);
  });
  test('plain output: one line per tenth', () => {
    assert.deepEqual([0, 9, 10, 19, 100].map((done) => tenthOf({ done, failed: 0, total: 100 })), [0, 0, 1, 1, 10]);
    assert.equal(tenthOf({ done: 0, failed: 0, total: 0 }), 0);
  });
});

describe('nextPollDelay', () => {
  const limits = { min: 250, max: 5000 };
  test('about a fiftieth of the job (at least 8 rows) at the rate seen so far, within the bounds', () => {
    // 1,000 rows at 20 rows/s: 20 rows a poll, one second.
    assert.equal(nextPollDelay({ total: 1000, finishedSince: 200, elapsedMs: 10_000 }, limits), 1000);
    // A small job: 8 rows at 20 rows/s.
    assert.equal(nextPollDelay({ total: 30, finishedSince: 20, elapsedMs: 1_000 }, limits), 400);
    assert.equal(nextPollDelay({ total: 30, finishedSince: 200, elapsedMs: 1_000 }, limits), 250);
    assert.equal(nextPollDelay({ total: 100_000, finishedSince: 1, elapsedMs: 60_000 }, limits), 5000);
  });
  test('no rate yet: from the shortest wait, half again each time, up to the longest', () => {
    assert.equal(nextPollDelay({ total: 10, finishedSince: 0, elapsedMs: 0 }, limits), 250);
    assert.equal(nextPollDelay({ total: 10, finishedSince: 0, elapsedMs: 300, previousMs: 250 }, limits), 375);
    assert.equal(nextPollDelay({ total: 10, finishedSince: 0, elapsedMs: 9000, previousMs: 4000 }, limits), 5000);
  });
});

describe('asGenerateRow', () => {
  test('html and/or url, text each; anything else fails the row alone', () => {
    const [ok, neither, typed, extra, empty] = rows({ html: '<p>x</p>', url: 'https://example.org' }, {}, { html: 3 }, { html: 'x', props: {} }, { html: ' ' }).map(asGenerateRow);
    assert.deepEqual(ok.props, { html: '<p>x</p>', url: 'https://example.org' });
    assert.match(neither.problem!, /neither "html" nor "url"/);
    assert.match(typed.problem!, /must be text/);
    assert.match(extra.problem!, /unknown field "props"/);
    // The service refuses a whole job for one such row (bad-input.test.ts): it is settled here, alone.
    assert.match(empty.problem!, /"html" is empty/);
  });
});

/** A service scripted poll by poll: each getJob answers the next status (the last one repeats). */
function scripted(statuses: (JobDetails | Error)[]) {
  const log: string[] = [];
  const written = new Map<string, Buffer>();
  let poll = 0;
  const controller = new AbortController();
  const deps: FollowDeps & { download: (url: string) => Promise<Buffer> } = {
    getJob: async () => {
      const answer = statuses[Math.min(poll++, statuses.length - 1)];
      log.push(`poll ${poll}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    download: async (url: string) => {
      log.push(`download ${url}`);
      return Buffer.from(url);
    },
    write: (file: string, data: Buffer) => void written.set(file, data),
    exists: (file: string) => written.has(file),
    now: () => poll * 100,
    sleep: async () => undefined,
    onStatus: () => undefined,
    onRow: () => undefined,
    signal: controller.signal,
  };
  return { deps, log, written, controller };
}

const job = (status: JobDetails['status'], done: number, rows: JobDetails['rows'], total = 3, failed = 0): JobDetails => ({ id: 'j1', status, total, done, failed, rows });
const plan = (over: Partial<FollowPlan> = {}): FollowPlan => ({
  jobId: 'j1',
  outDir: '/out',
  names: [{ row: 1, name: 'a.pdf' }, { row: 2, name: 'b.pdf' }, { row: 5, name: 'e.pdf' }],
  keepExisting: false,
  downloadConcurrency: 2,
  pollMs: { min: 1, max: 4 },
  patienceMs: 60_000,
  ...over,
});

describe('followJob', () => {
  test('each PDF is fetched as soon as its row is reported, not at the end; failed rows are recorded under their input row', async () => {
    const service = scripted([
      job('running', 1, [{ row: 1, name: 'x', url: 'u1' }]),
      job('running', 2, [{ row: 1, name: 'x', url: 'u1' }, { row: 2, error: 'bad props', code: 'INVALID_INPUT' }], 3, 1),
      job('completed', 2, [{ row: 1, name: 'x', url: 'u1' }, { row: 2, error: 'bad props' }, { row: 3, name: 'y', url: 'u3' }], 3, 1),
    ]);
    const result = await followJob(plan(), service.deps);
    assert.equal(result.interrupted, false);
    assert.ok(service.log.indexOf('download u1') < service.log.indexOf('poll 2'), service.log.join(', '));
    assert.deepEqual([...service.written.keys()], ['/out/a.pdf', '/out/e.pdf']);
    assert.deepEqual(result.rows.map(({ row, status, file }) => [row, status, file]), [[1, 'ok', 'a.pdf'], [2, 'failed', 'b.pdf'], [5, 'ok', 'e.pdf']]);
    assert.equal(service.log.filter((line) => line.startsWith('download')).length, 2, 'each PDF fetched once');
  });

  test('jobs wait: a file already there is kept, not fetched again', async () => {
    const service = scripted([job('completed', 3, [{ row: 1, url: 'u1' }, { row: 2, url: 'u2' }, { row: 3, url: 'u3' }])]);
    service.written.set('/out/b.pdf', Buffer.from('earlier'));
    const result = await followJob(plan({ keepExisting: true }), service.deps);
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok'], [2, 'skipped'], [5, 'ok']]);
    assert.equal(service.written.get('/out/b.pdf')!.toString(), 'earlier');
    assert.deepEqual(result.counts.kept, 1);
  });

  test('a PDF that cannot be fetched fails its row and is counted, so the job\'s note stays for a later wait', async () => {
    const service = scripted([job('completed', 3, [{ row: 1, url: 'u1' }, { row: 2, url: 'gone' }, { row: 3, url: 'u3' }])]);
    const download = service.deps.download;
    service.deps.download = async (url: string) => {
      if (url === 'gone') throw explainRemoteError(new ApiError(404, 'This download link has expired.', 'GET', url, { code: 'NOT_FOUND' }), 'http://x');
      return download(url);
    };
    const result = await followJob(plan(), service.deps);
    assert.equal(result.downloadFailures, 1);
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok'], [2, 'failed'], [5, 'ok']]);
    assert.match(result.rows[1].error!, /could not be downloaded: This download link has expired/);
  });

  test('a cancelled job: rows never started fail as cancelled', async () => {
    const service = scripted([job('cancelled', 1, [{ row: 1, url: 'u1' }])]);
    const result = await followJob(plan(), service.deps);
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok'], [2, 'failed'], [5, 'failed']]);
    assert.match(result.rows[1].error!, /cancelled before this row was rendered/);
  });

  test('a service briefly unreachable or busy is asked again; a refusal is not', async () => {
    // As the CLI hands them to the loop: explained (jobs-api.ts).
    const unreachable = explainRemoteError(new ApiUnreachableError('http://x/api/jobs/j1', 'connection refused'), 'http://x') as Error;
    const busy = explainRemoteError(new ApiError(503, 'draining', 'GET', 'http://x', { code: 'DRAINING' }), 'http://x') as Error;
    const service = scripted([unreachable, busy, job('completed', 0, [], 0)]);
    assert.equal((await followJob(plan(), service.deps)).interrupted, false);
    const refused = scripted([explainRemoteError(new ApiError(404, 'no such job', 'GET', 'http://x', { code: 'NOT_FOUND' }), 'http://x') as Error]);
    await assert.rejects(followJob(plan(), refused.deps), /no such job/);
  });

  test('a service away for longer than the patience: the error stands', async () => {
    const unreachable = explainRemoteError(new ApiUnreachableError('http://x/api/jobs/j1', 'connection refused'), 'http://x') as Error;
    const service = scripted([unreachable]); // every poll; the fake clock moves 100 ms a poll
    await assert.rejects(followJob(plan({ patienceMs: 450 }), service.deps), /Could not reach the Imprint API/);
    assert.equal(service.log.length, 6, service.log.join(', '));
  });

  test('stopped (Ctrl-C) mid-download: polling ends, the download under way is written, queued ones are left, the result says interrupted', async () => {
    const service = scripted([job('running', 2, [{ row: 1, url: 'u1' }, { row: 2, url: 'u2' }]), job('completed', 3, [{ row: 1, url: 'u1' }, { row: 2, url: 'u2' }, { row: 3, url: 'u3' }])]);
    const download = service.deps.download;
    service.deps.download = async (url: string) => {
      service.controller.abort(); // Ctrl-C while the first PDF is on its way
      return download(url);
    };
    const result = await followJob(plan({ downloadConcurrency: 1 }), service.deps);
    assert.equal(result.interrupted, true);
    assert.deepEqual(service.log, ['poll 1', 'download u1']);
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok']]);
    assert.deepEqual([...service.written.keys()], ['/out/a.pdf']);
  });
});

describe('followJob with the job\'s stream', () => {
  /** A stream answering `events`, then ending; `thenFail`: ending with an error instead (a dropped connection). */
  function streamOf(events: JobStreamEvent[], log: string[], thenFail?: Error) {
    return async function* () {
      log.push('stream');
      for (const event of events) yield event;
      if (thenFail) throw thenFail;
    };
  }
  const pdf = (text: string) => Buffer.from(`%PDF ${text}`);

  test('every row from the stream, its PDF written as it came: no poll, no download', async () => {
    const service = scripted([job('completed', 3, [])]);
    service.deps.stream = streamOf(
      [
        { job: job('running', 0, undefined) },
        { row: { row: 2, error: 'bad props', code: 'INVALID_INPUT' } },
        { row: { row: 3, name: 'y', url: 'u3' }, pdf: pdf('three') },
        { row: { row: 1, name: 'x', url: 'u1' }, pdf: pdf('one') },
        { job: job('failed', 2, undefined, 3, 1) },
      ],
      service.log,
    );
    const result = await followJob(plan(), service.deps);
    assert.equal(result.interrupted, false);
    assert.deepEqual(service.log, ['stream'], 'neither a poll nor a download');
    assert.deepEqual([...service.written.keys()], ['/out/e.pdf', '/out/a.pdf'], 'written in the order rows finished');
    assert.equal(service.written.get('/out/a.pdf')!.toString(), '%PDF one');
    assert.deepEqual(result.rows.map(({ row, status, file }) => [row, status, file]), [[1, 'ok', 'a.pdf'], [2, 'failed', 'b.pdf'], [5, 'ok', 'e.pdf']]);
    assert.equal(result.job.status, 'failed');
  });

  test('a stream that breaks off: polling takes over, and the rows the stream gave are neither fetched nor counted again', async () => {
    const service = scripted([job('completed', 3, [{ row: 1, name: 'x', url: 'u1' }, { row: 2, name: 'y', url: 'u2' }, { row: 3, name: 'z', url: 'u3' }])]);
    service.deps.stream = streamOf([{ job: job('running', 0, undefined) }, { row: { row: 1, name: 'x', url: 'u1' }, pdf: pdf('one') }], service.log, new Error('the connection closed unexpectedly'));
    const result = await followJob(plan(), service.deps);
    assert.equal(result.interrupted, false);
    assert.deepEqual(service.log, ['stream', 'poll 1', 'download u2', 'download u3']);
    assert.equal(service.written.get('/out/a.pdf')!.toString(), '%PDF one');
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok'], [2, 'ok'], [5, 'ok']]);
  });

  test('a service without the stream (it answers 404): polling alone', async () => {
    const service = scripted([job('completed', 3, [{ row: 1, url: 'u1' }, { row: 2, url: 'u2' }, { row: 3, url: 'u3' }])]);
    service.deps.stream = async function* () {
      service.log.push('stream');
      throw new ApiError(404, 'Route GET:/api/jobs/j1/stream not found', 'GET', 'http://x/api/jobs/j1/stream');
    };
    const result = await followJob(plan(), service.deps);
    assert.deepEqual(service.log, ['stream', 'poll 1', 'download u1', 'download u2', 'download u3']);
    assert.deepEqual(result.rows.map(({ status }) => status), ['ok', 'ok', 'ok']);
  });

  test('jobs wait: a file already there is kept, whatever the stream brings', async () => {
    const service = scripted([job('completed', 3, [])]);
    service.written.set('/out/b.pdf', Buffer.from('earlier'));
    service.deps.stream = streamOf([{ row: { row: 2, url: 'u2' }, pdf: pdf('two') }, { row: { row: 1, url: 'u1' }, pdf: pdf('one') }, { row: { row: 3, url: 'u3' }, pdf: pdf('three') }, { job: job('completed', 3, undefined) }], service.log);
    const result = await followJob(plan({ keepExisting: true }), service.deps);
    assert.equal(service.written.get('/out/b.pdf')!.toString(), 'earlier');
    assert.deepEqual(result.rows.map(({ row, status }) => [row, status]), [[1, 'ok'], [2, 'skipped'], [5, 'ok']]);
  });
});
