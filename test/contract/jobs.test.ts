/**
 * Jobs (api.md Part D) against the real service (the installed package's `imprint serve`) and
 * its Chromium: 200 example invoices in
 * one job, each PDF's text matching its row, the zip archive holding them under the `name`
 * pattern, bad rows failing alone with the path named, the monthly limit refusing up front and
 * getting failed and cancelled rows back, cancel, teams seeing only their own jobs, a
 * synchronous render answered while a large job is still running, and the job's stream (every
 * finished row once with its PDF, ending with the job over).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { derivePropsSchema } from '../../src/core/schema/index.js';
import { tempDir } from '../helpers/cli.js';
import { FINAL, INVOICE_FILE, invoiceRow, readJobStream, waitFor } from '../helpers/jobs.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { scrape } from '../helpers/prometheus.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let acme: { key: string };
const scratch = tempDir('imprint-jobs-');

before(async () => {
  // Three render slots (--concurrency 3): a job takes two, one stays for requests. Its metrics on the API port.
  service = await startTestService({ pool: { concurrency: 3 }, metrics: { onApiPort: true } });
  acme = await service.team('acme', 1000);
  const invoice = derivePropsSchema(INVOICE_FILE);
  assert.equal(invoice.kind, 'schema');
  const artifact = (await bundleTemplate(INVOICE_FILE)).artifact;
  const published = await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'invoice', artifact, propsSchema: invoice.kind === 'schema' ? invoice.schema : undefined } });
  assert.equal(published.status, 201, describeReply(published));
  const greeting = await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
  assert.equal(greeting.status, 201, describeReply(greeting));
});

after(async () => {
  await service?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const getJob = async (id: string, key = acme.key) => {
  const reply = await service.call('GET', `/api/jobs/${id}`, { key });
  assert.equal(reply.status, 200, describeReply(reply));
  return reply.json();
};
const finished = (id: string, key = acme.key) => waitFor(() => getJob(id, key), (job) => FINAL.includes(job.status), `job ${id} to finish`);
const usage = async (key: string) => (await service.call('GET', '/api/me', { key })).json().team.usedThisMonth as number;

describe('a job of 200 invoices', () => {
  const BAD = new Set([51, 152]);
  const rows = Array.from({ length: 202 }, (_, index) => (BAD.has(index + 1) ? { ...invoiceRow(index + 1), items: 'not a list' } : invoiceRow(index + 1)));
  let jobId: string;
  let job: any;

  test('submit answers 202 with the job, its status URL and Location', async () => {
    const reply = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'invoice', rows, name: '{{invoiceNo}}.pdf' } });
    assert.equal(reply.status, 202, describeReply(reply));
    const body = reply.json();
    assert.deepEqual(Object.keys(body).sort(), ['id', 'status', 'statusUrl', 'total']);
    assert.equal(body.total, 202);
    assert.ok(['queued', 'running'].includes(body.status));
    assert.equal(reply.headers.location, body.statusUrl);
    assert.equal(body.statusUrl, `${service.url}/api/jobs/${body.id}`);
    jobId = body.id;
  });

  test('a synchronous render is answered while the job is still running', async () => {
    const before = await waitFor(() => getJob(jobId), (seen) => seen.done >= 4, 'the job to get going');
    const sync = await service.call('POST', '/api/documents/greeting', { key: acme.key, body: { props: { name: 'Ada' } } });
    assert.equal(sync.status, 200, describeReply(sync));
    assert.match(pdfText(sync.body), /Hello Ada/);
    // The rows may hold every slot, but the request takes the first one that frees: it waits
    // for the renders under way, not behind the job's remaining rows.
    const during = await getJob(jobId);
    assert.equal(during.status, 'running', `the job had already ${during.status} (${during.done}/${during.total}) when the request was answered`);
    const rowsMeanwhile = during.done + during.failed - before.done - before.failed;
    assert.ok(rowsMeanwhile <= 20, `${rowsMeanwhile} rows finished while the request waited and rendered: it queued behind the job`);
  });

  test('finishes as failed: 200 rows delivered, the two bad ones failed alone with the path named', async () => {
    job = await finished(jobId);
    assert.equal(job.status, 'failed', JSON.stringify({ ...job, rows: undefined }));
    assert.deepEqual([job.total, job.done, job.failed, job.cancelled], [202, 200, 2, 0]);
    assert.equal(job.rows.length, 202);
    assert.deepEqual(job.rows.map((row: any) => row.row), rows.map((_, index) => index + 1));
    for (const row of job.rows) {
      if (BAD.has(row.row)) {
        assert.equal(row.code, 'INVALID_INPUT');
        assert.match(row.error, /items/, row.error);
        assert.equal(row.url, undefined);
      } else {
        assert.equal(row.name, `INV-${String(row.row).padStart(4, '0')}.pdf`);
        assert.match(row.url, new RegExp(`^${service.url}/api/files/`));
      }
    }
    // Only the 200 PDFs made count; the failed rows' units were given back.
    assert.equal(await usage(acme.key), 201); // 200 rows and the synchronous render
    const metrics = await scrape(service.metricsUrl!);
    assert.equal(metrics.value('imprint_job_rows_total', { result: 'done' }), 200);
    assert.equal(metrics.value('imprint_job_rows_total', { result: 'failed' }), 2);
    assert.equal(metrics.value('imprint_job_rows_pending'), 0);
    // Each row delivered is a generation, as the synchronous render is.
    assert.equal(metrics.value('imprint_generations_total'), 201);
  });

  test("every row's PDF says its own invoice number and customer; the archive holds the same 200 PDFs by name", async () => {
    const archive = await service.call('GET', `/api/jobs/${jobId}/archive`, { key: acme.key });
    assert.equal(archive.status, 200, describeReply(archive));
    assert.equal(archive.headers['content-type'], 'application/zip');
    const zipFile = path.join(scratch, 'job.zip');
    fs.writeFileSync(zipFile, archive.body);
    const listed = execFileSync('zipinfo', ['-1', zipFile], { encoding: 'utf8' }).trim().split('\n');
    const expected = job.rows.filter((row: any) => row.url).map((row: any) => row.name);
    assert.equal(listed.length, 200);
    assert.deepEqual([...listed].sort(), [...expected].sort());
    const unpacked = path.join(scratch, 'unpacked');
    execFileSync('unzip', ['-q', zipFile, '-d', unpacked]);
    for (const row of job.rows.filter((r: any) => r.url)) {
      const file = path.join(unpacked, row.name);
      const text = pdfText(file);
      const n = row.row;
      assert.match(text, new RegExp(`INV-${String(n).padStart(4, '0')}`), `row ${n}`);
      assert.match(text, new RegExp(`Customer ${n} Ltd`), `row ${n}`);
      assert.ok(pdfInfo(file).pages >= 1);
      // The row's URL serves the very same PDF.
      const downloaded = Buffer.from(await (await request(row.url)).body.arrayBuffer());
      assert.ok(downloaded.equals(fs.readFileSync(file)), `row ${n}: the URL and the archive differ`);
    }
  });

  test('the job is listed newest first and pages with ?before', async () => {
    const later = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'greeting', rows: [{ name: 'Eve' }] } });
    assert.equal(later.status, 202, describeReply(later));
    await finished(later.json().id);
    const first = await service.call('GET', '/api/jobs?limit=1', { key: acme.key });
    assert.equal(first.status, 200, describeReply(first));
    assert.equal(first.json().jobs[0].id, later.json().id);
    assert.equal(first.json().next, later.json().id);
    const second = (await service.call('GET', `/api/jobs?limit=1&before=${first.json().next}`, { key: acme.key })).json();
    assert.equal(second.jobs[0].id, jobId);
    assert.equal(second.jobs[0].status, 'failed');
    assert.equal((await service.call('GET', '/api/jobs?limit=0', { key: acme.key })).status, 400);
  });
});

describe('the monthly limit', () => {
  test('a job that would pass it is refused up front with 422, nothing stored; failed and cancelled rows are given back', async () => {
    const team = await service.team('small', 5);
    const over = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: Array.from({ length: 6 }, (_, i) => ({ name: `n${i}` })) } });
    // The template is another team's: this team's job is refused before any lookup would matter.
    assert.ok([404, 422].includes(over.status), describeReply(over));
    const own = await service.call('POST', '/api/templates', { key: team.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
    assert.equal(own.status, 201);
    const refused = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: Array.from({ length: 6 }, (_, i) => ({ name: `n${i}` })) } });
    assert.equal(refused.status, 422, describeReply(refused));
    assert.equal(refused.json().code, 'LIMIT_EXCEEDED');
    assert.match(refused.json().error, /6 rows.*5 of its 5/);
    assert.deepEqual((await service.call('GET', '/api/jobs', { key: team.key })).json().jobs, []);
    assert.equal(await usage(team.key), 0);

    // Five rows fit; two throw in the page: three count.
    const rows = [{ name: 'a' }, { name: 'b', explode: true }, { name: 'c' }, { name: 'd', explode: true }, { name: 'e' }];
    const submitted = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows } });
    assert.equal(submitted.status, 202, describeReply(submitted));
    const job = await finished(submitted.json().id, team.key);
    assert.deepEqual([job.status, job.done, job.failed], ['failed', 3, 2]);
    assert.match(job.rows[1].error, /cannot greet b/);
    assert.equal(job.rows[1].code, 'RENDER_FAILED');
    assert.equal(await usage(team.key), 3);
    // The two given back can be used again, and no more.
    assert.equal((await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'x' }, { name: 'y' }, { name: 'z' }] } })).status, 422);
    const fits = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: [{ name: 'x' }, { name: 'y' }] } });
    assert.equal(fits.status, 202, describeReply(fits));
    assert.equal((await finished(fits.json().id, team.key)).status, 'completed');
    assert.equal(await usage(team.key), 5);
  });
});

describe('cancel and isolation', () => {
  test('DELETE cancels the rows not started: they are not counted; the rest finish; the job ends cancelled', async () => {
    const team = await service.team('canceller', 100);
    assert.equal((await service.call('POST', '/api/templates', { key: team.key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } })).status, 201);
    const submitted = await service.call('POST', '/api/jobs', { key: team.key, body: { template: 'greeting', rows: Array.from({ length: 60 }, (_, i) => ({ name: `P${i + 1}` })) } });
    assert.equal(submitted.status, 202, describeReply(submitted));
    const id = submitted.json().id;
    const cancel = await service.call('DELETE', `/api/jobs/${id}`, { key: team.key });
    assert.equal(cancel.status, 200, describeReply(cancel));
    assert.ok(cancel.json().cancelled > 0, JSON.stringify(cancel.json()));
    const job = await finished(id, team.key);
    assert.equal(job.status, 'cancelled');
    assert.equal(job.done + job.failed + job.cancelled, 60);
    assert.equal(job.failed, 0);
    assert.equal(job.rows.length, job.done);
    assert.equal(await usage(team.key), job.done);
    // Cancelling again changes nothing.
    const again = await service.call('DELETE', `/api/jobs/${id}`, { key: team.key });
    assert.deepEqual([again.json().status, again.json().cancelled], ['cancelled', job.cancelled]);
  });

  test("another team's job answers 404 to every route, as one that does not exist", async () => {
    const mallory = await service.team('mallory');
    const listed = (await service.call('GET', '/api/jobs', { key: acme.key })).json().jobs;
    const id = listed[0].id;
    for (const [method, url] of [['GET', `/api/jobs/${id}`], ['GET', `/api/jobs/${id}/archive`], ['GET', `/api/jobs/${id}/stream`], ['DELETE', `/api/jobs/${id}`], ['GET', '/api/jobs/no-such-job']]) {
      const reply = await service.call(method, url, { key: mallory.key });
      assert.equal(reply.status, 404, `${method} ${url}: ${describeReply(reply)}`);
      assert.equal(reply.json().code, 'NOT_FOUND');
    }
    assert.deepEqual((await service.call('GET', '/api/jobs', { key: mallory.key })).json().jobs, []);
    assert.equal((await service.call('GET', '/api/jobs', {})).status, 401);
  });

  test('bodies are judged with the field named: 400 for no rows, a row that is not an object, an unknown template 404', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ template: 'greeting' }, 400, /rows/],
      [{ template: 'greeting', rows: [] }, 400, /rows/],
      [{ template: 'greeting', rows: [{ name: 'a' }, 5] }, 400, /rows\[1\]/],
      [{ template: 'greeting', rows: [{}], size: 'B9000' }, 400, /size/i],
      [{ template: 'nope', rows: [{}] }, 404, /nope/],
      [{ rows: [{ html: '<p>x</p>' }], version: 2 }, 400, /version/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await service.call('POST', '/api/jobs', { key: acme.key, body });
      assert.equal(reply.status, status, `${JSON.stringify(body)}: ${describeReply(reply)}`);
      assert.match(reply.json().error, message);
    }
  });

  test('an A2 job renders rows of html; a row whose url the policy refuses fails alone', async () => {
    // (A row with neither html nor url is refused at submit: bad-input.test.ts.)
    const submitted = await service.call('POST', '/api/jobs', { key: acme.key, body: { rows: [{ html: '<h1>First page</h1>' }, { url: 'http://127.0.0.1:1/' }, { html: '<h1>Third page</h1>' }], name: 'page-{{$row}}.pdf' } });
    assert.equal(submitted.status, 202, describeReply(submitted));
    const job = await finished(submitted.json().id);
    assert.deepEqual([job.status, job.done, job.failed], ['failed', 2, 1]);
    assert.equal(job.rows[0].name, 'page-1.pdf');
    assert.equal(job.rows[1].code, 'URL_DENIED', JSON.stringify(job.rows[1]));
    const third = Buffer.from(await (await request(job.rows[2].url)).body.arrayBuffer());
    assert.match(pdfText(third), /Third page/);
  });
});

const readStream = (id: string, key: string) => readJobStream(service.url, id, key);

describe("a job's stream", () => {
  test('every finished row once, as it finishes, each rendered row with its PDF; the first and last lines are the job, the last one over', async () => {
    const rows = Array.from({ length: 6 }, (_, index) => (index === 3 ? { ...invoiceRow(900 + index), items: 'not a list' } : invoiceRow(900 + index)));
    const submitted = await service.call('POST', '/api/jobs', { key: acme.key, body: { template: 'invoice', rows, name: '{{invoiceNo}}.pdf' } });
    assert.equal(submitted.status, 202, describeReply(submitted));
    const id = submitted.json().id;
    // Asked at once: the rows arrive while the job runs (the first line shows it not over yet).
    const lines = await readStream(id, acme.key);
    assert.ok(lines[0].job, JSON.stringify(lines[0]).slice(0, 200));
    assert.equal(lines[0].job.id, id);
    const last = lines[lines.length - 1];
    assert.deepEqual([last.job?.status, last.job?.done, last.job?.failed, last.job?.total], ['failed', 5, 1, 6]);
    const rowLines = lines.filter((line) => line.row);
    assert.deepEqual(rowLines.map((line) => line.row.row).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6], 'each row exactly once');
    const status = await getJob(id);
    for (const line of rowLines) {
      const n = line.row.row;
      if (n === 4) {
        assert.equal(line.row.code, 'INVALID_INPUT', JSON.stringify(line.row));
        assert.match(line.row.error, /items/);
        assert.equal(line.pdf, undefined);
        continue;
      }
      const pdf = Buffer.from(line.pdf, 'base64');
      assert.match(pdfText(pdf), new RegExp(`INV-${String(899 + n).padStart(4, '0')}`));
      assert.ok(pdfInfo(pdf).pages >= 1);
      // The same row as the status shows it, and its URL downloads the same bytes.
      assert.deepEqual(line.row, status.rows.find((row: { row: number }) => row.row === n));
      const downloaded = Buffer.from(await (await request(line.row.url)).body.arrayBuffer());
      assert.ok(downloaded.equals(pdf), `row ${n}: the stream's PDF is the download's`);
    }

    // Asked again once the job is over: every finished row again (read back from storage), then the job.
    const again = await readStream(id, acme.key);
    assert.deepEqual(again.filter((line) => line.row).map((line) => line.row.row).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
    for (const line of again.filter((l) => l.row && l.pdf)) {
      assert.equal(line.pdf, rowLines.find((first) => first.row.row === line.row.row).pdf, `row ${line.row.row}: the same bytes from storage`);
    }
    assert.equal(again[again.length - 1].job.status, 'failed');
  });
});
