/**
 * Test keys stay in test mode over the jobs API (issue 41, case 3), against the installed
 * package's `imprint serve`: a test key lists and reads only the jobs test keys submitted; a
 * live job of its own team answers it 404 on every route (status, stream, archive, cancel),
 * as another team's job does, so its files' URLs never reach it; a live job is no cursor for
 * its listing either. A live key's listing is unchanged: every job of the team, a test key's
 * marked `"test": true`. Before the fix, a test key listed the live job and read its
 * unstamped PDFs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { withFile } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let liveKey = '';
let testKey = '';
let liveJob = '';
let testJob = '';

const jobOf = async (id: string, key: string) => {
  const reply = await service.call('GET', `/api/jobs/${id}`, { key });
  assert.equal(reply.status, 200, describeReply(reply));
  return reply.json();
};
const finished = (id: string, key: string) => waitFor(() => jobOf(id, key), (job) => FINAL.includes(job.status), `job ${id} to finish`);
const submit = async (key: string, who: string) => {
  const reply = await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: `${who} one` }, { name: `${who} two` }] } });
  assert.equal(reply.status, 202, describeReply(reply));
  return reply.json().id as string;
};
/** The text in content order (-raw), white space dropped: poppler writes the diagonal stamp letter by letter on lines of its own. */
const squeezed = (pdf: Buffer) => withFile(pdf, (file) => execFileSync('pdftotext', ['-raw', file, '-'], { timeout: 30_000 }).toString()).replace(/\s+/g, '');
const listed = async (key: string, query = '') => {
  const reply = await service.call('GET', `/api/jobs${query}`, { key });
  assert.equal(reply.status, 200, describeReply(reply));
  return reply.json().jobs as { id: string; test?: boolean }[];
};

before(async () => {
  service = await startTestService();
  const acme = await service.team('acme', 100);
  liveKey = acme.key;
  const team = await service.operator.getTeam('acme');
  testKey = (await service.operator.dashboard.createKey(team!.id, { test: true })).key;
  const published = await service.call('POST', '/api/templates', { key: liveKey, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
  assert.equal(published.status, 201, describeReply(published));
  liveJob = await submit(liveKey, 'Live');
  testJob = await submit(testKey, 'Trial');
  await finished(liveJob, liveKey);
  await finished(testJob, liveKey);
});

after(async () => {
  await service?.close();
});

describe('a test key and the jobs API (issue 41)', () => {
  test('a test key lists only test jobs; its own job reads and downloads, stamped', async () => {
    assert.deepEqual((await listed(testKey)).map((job) => job.id), [testJob]);
    const job = await jobOf(testJob, testKey);
    assert.equal(job.test, true);
    assert.equal(job.rows.length, 2);
    for (const row of job.rows) {
      const pdf = await service.call('GET', new URL(row.url).pathname, {});
      assert.equal(pdf.status, 200);
      assert.match(squeezed(pdf.body), /TEST/);
    }
    const archive = await service.call('GET', `/api/jobs/${testJob}/archive`, { key: testKey });
    assert.equal(archive.status, 200, describeReply(archive));
  });

  test("a live job of the test key's own team answers 404 on every route, as another team's would, and is not cancelled", async () => {
    for (const [method, url] of [['GET', `/api/jobs/${liveJob}`], ['GET', `/api/jobs/${liveJob}/stream`], ['GET', `/api/jobs/${liveJob}/archive`], ['DELETE', `/api/jobs/${liveJob}`]]) {
      const reply = await service.call(method, url, { key: testKey });
      assert.equal(reply.status, 404, `${method} ${url}: ${describeReply(reply)}`);
      assert.equal(reply.json().code, 'NOT_FOUND');
    }
    assert.deepEqual(await listed(testKey, `?before=${liveJob}`), [], 'a live job is no cursor for a test key');
    assert.equal((await jobOf(liveJob, liveKey)).status, 'completed');
  });

  test("a live key's listing is unchanged: every job of the team, the test key's marked", async () => {
    const jobs = await listed(liveKey);
    assert.deepEqual(jobs.map((job) => job.id), [testJob, liveJob]);
    assert.deepEqual(jobs.map((job) => job.test === true), [true, false]);
    const live = await jobOf(liveJob, liveKey);
    for (const row of live.rows) {
      const pdf = await service.call('GET', new URL(row.url).pathname, {});
      assert.match(squeezed(pdf.body), /HelloLive(one|two)/);
      assert.doesNotMatch(squeezed(pdf.body), /TEST/, 'a live job is unstamped');
    }
  });
});
