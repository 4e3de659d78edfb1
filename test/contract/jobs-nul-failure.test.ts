/**
 * Issue 41, case 10: on PostgreSQL, a job row whose failure message held a NUL byte (a file-name
 * pattern naming a missing prop with a NUL in it) could not be recorded, PostgreSQL text holding
 * no NUL, and the row stayed running for ever with its unit held. Through a real `imprint serve`
 * on PostgreSQL and S3: the row fails with its message (the NUL shown as U+FFFD), the job ends
 * failed, and the team's count gives the unit back.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let key: string;

before(async () => {
  service = await startTestService({ backend: 'postgres-s3' });
  ({ key } = await service.team('nul', 10));
  const published = await service.call('POST', '/api/templates', { key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
  assert.equal(published.status, 201, describeReply(published));
});
after(() => service?.close());

const usage = async () => (await service.call('GET', '/api/me', { key })).json().team.usedThisMonth as number;

test('a name pattern holding NUL: refused at submit (400 naming U+0000), nothing stored or counted; before, its row stayed running for ever on PostgreSQL', { timeout: 120_000 }, async () => {
  const refused = await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', name: '{{who\u0000ever}}', rows: [{ name: 'Ada' }] } });
  assert.equal(refused.status, 400, describeReply(refused));
  assert.equal(refused.json().code, 'INVALID_INPUT');
  assert.match(refused.json().error, /Invalid name: it holds U\+0000 at character 6, a control character no file name can carry/);
  assert.equal(await usage(), 0);
  assert.deepEqual((await service.call('GET', '/api/jobs', { key })).json().jobs, []);
});

test('a row whose template fails with a NUL in its message, on PostgreSQL: recorded failed (U+FFFD), the job ends, the unit comes back', { timeout: 240_000 }, async () => {
  const submitted = await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: 'Ada\u0000Lovelace', explode: true }, { name: 'Grace' }] } });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const job = await waitFor(
    async () => (await service.call('GET', `/api/jobs/${id}`, { key })).json() as { status: string; rows?: { row: number; error?: string; url?: string }[] },
    (state) => FINAL.includes(state.status),
    `job ${id} to finish`,
    180_000,
  );
  assert.equal(job.status, 'failed', JSON.stringify(job));
  const [failed, done] = job.rows ?? [];
  assert.match(failed?.error ?? '', /cannot greet Ada\uFFFDLovelace/, JSON.stringify(job));
  assert.ok(done?.url, JSON.stringify(job));
  assert.equal(await usage(), 1, 'the failed row gave its unit back; the delivered one counts');
});
