/**
 * Bad input is a 4xx with a code, never a 500, a stack in the log or a stuck job (issue 26),
 * against the real service on both stores (SQLite in a data folder; PostgreSQL and S3): job
 * bodies refused at submit with the field named (rows nested past the props depth, A2 rows with
 * nothing to render, empty html, an unknown field and the one that was meant), and ids holding
 * a NUL byte (%00) answered as any unknown id in every path and body field that names one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { describeReply, fixtureArtifact, startTestService, type TestBackend, type TestService } from './helpers/service.js';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { deeper: value };
  return value;
};

for (const backend of ['sqlite', 'postgres-s3'] as TestBackend[]) {
  describe(`bad input on ${backend}`, () => {
    let service: TestService;
    let key: string;
    let jobId: string;

    const expectRefusal = (reply: Awaited<ReturnType<TestService['call']>>, status: number, message: RegExp, code = status === 400 ? 'INVALID_INPUT' : 'NOT_FOUND') => {
      assert.equal(reply.status, status, describeReply(reply));
      assert.equal(reply.json().code, code, describeReply(reply));
      assert.match(reply.json().error, message);
    };
    const noStackInLog = () => {
      const failures = service.logs.filter((line) => /"level":50|request failed|RangeError|invalid byte sequence/.test(line));
      assert.deepEqual(failures, [], 'nothing was logged as a failure');
    };

    before(async () => {
      service = await startTestService({ backend });
      key = (await service.team('acme')).key;
      const published = await service.call('POST', '/api/templates', { key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
      assert.equal(published.status, 201, describeReply(published));
      const submitted = await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: 'Ada' }] } });
      assert.equal(submitted.status, 202, describeReply(submitted));
      jobId = submitted.json().id;
    });

    after(() => service?.close());

    test('a job row nested past the props depth limit: 400 naming the row and the limit, as a render request', async () => {
      const deep = { name: 'x', extra: nested(40) };
      expectRefusal(await service.call('POST', '/api/documents/greeting', { key, body: { props: deep } }), 400, /more than 32 levels/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: 'ok' }, deep] } }), 400, /^Invalid rows\[1\]: it nests more than 32 levels deep/);
      // Deep enough that storing it would overflow the stack (a RangeError, once a 500).
      const raw = `{"template": "greeting", "rows": [{"name": "x", "deep": ${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`;
      expectRefusal(await service.call('POST', '/api/jobs', { key, rawBody: raw, headers: { 'content-type': 'application/json' } }), 400, /^Invalid rows\[0\]: it nests more than 32/);
      noStackInLog();
    });

    test('an A2 job whose row has neither html nor url, or empty html: 400 naming the row, nothing stored', async () => {
      const listed = async () => (await service.call('GET', '/api/jobs', { key })).json().jobs.length as number;
      const count = await listed();
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { rows: [{ html: '<p>a</p>' }, { invoiceNo: 7 }] } }), 400, /Nothing to render in rows\[1\]: give "rows\[1\]\.html", "rows\[1\]\.url"/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { rows: [{ html: '' }] } }), 400, /^Invalid rows\[0\]\.html: it is empty/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { rows: [{ html: 5 }] } }), 400, /^Invalid rows\[0\]\.html: expected a string/);
      assert.equal(await listed(), count, 'no job was stored');
    });

    test('{"html": ""} on A2: 400 naming html, not a blank page', async () => {
      expectRefusal(await service.call('POST', '/api/generate', { key, body: { html: '' } }), 400, /^Invalid html: it is empty/);
      expectRefusal(await service.call('POST', '/api/generate', { key, body: { html: ' \n ' } }), 400, /^Invalid html: it is empty/);
    });

    test('an unknown field in a job: 400 naming it and, for a near miss, the field meant', async () => {
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { documentId: 'greeting', rows: [{ name: 'a' }] } }), 400, /^Unknown field "documentId" in the job: did you mean "template"\?/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: 'a' }], webhok: { url: 'https://example.org' } } }), 400, /^Unknown field "webhok" .*did you mean "webhook"\?/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { template: 'greeting', rows: [{ name: 'a' }], colour: 'red' } }), 400, /^Unknown field "colour" in the job: a job's fields are template, version, rows/);
    });

    test('ids holding a NUL byte answer as unknown ids: 404 (an empty list for ?before=), never 500', async () => {
      const nul = '%00';
      expectRefusal(await service.call('GET', `/api/jobs/${jobId}${nul}`, { key }), 404, /No job/);
      expectRefusal(await service.call('GET', `/api/jobs/${nul}x/archive`, { key }), 404, /No job/);
      expectRefusal(await service.call('DELETE', `/api/jobs/a${nul}`, { key }), 404, /No job/);
      const listed = await service.call('GET', `/api/jobs?before=${jobId}${nul}`, { key });
      assert.equal(listed.status, 200, describeReply(listed));
      assert.deepEqual(listed.json().jobs, []);
      expectRefusal(await service.call('POST', `/api/documents/greeting${nul}`, { key, body: { props: { name: 'x' } } }), 404, /greeting/);
      expectRefusal(await service.call('GET', `/api/templates/greeting${nul}`, { key }), 404, /greeting/);
      expectRefusal(await service.call('DELETE', `/api/templates/${nul}greeting`, { key }), 404, /greeting/);
      expectRefusal(await service.call('POST', `/api/templates/greeting${nul}/rollback`, { key, body: { version: 1 } }), 404, /greeting/);
      expectRefusal(await service.call('POST', '/api/jobs', { key, body: { template: 'greeting\u0000', rows: [{ name: 'a' }] } }), 404, /greeting/);
      expectRefusal(await service.call('GET', `/api/files/abc${nul}def`), 404, /unknown or has expired/);
      noStackInLog();
    });
  });
}
