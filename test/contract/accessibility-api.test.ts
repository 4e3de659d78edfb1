/**
 * Bookmarks and tags through the service (issue 38): the 30-page report published and rendered
 * by A1 and by a job's row answers the same outline (titles, nesting, pages) and the same
 * structure tree as the CLI prints from the same template; `outline: false` and `tagged: false`
 * are honoured, `pdfua: true` adds pdfuaid, and `tagged: false` with `outline: true` is a 400.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { pdfLinks, pdfOutline, pdfXmp } from '../helpers/pdf-accessibility.js';
import { pdfInfoFields, pdfStructure } from '../helpers/pdf-metadata.js';
import { describeReply, startTestService, type TestService } from './helpers/service.js';

const REPORT = path.join(INPUTS, 'test', 'fixtures', 'accessibility', 'Report.tsx');
const props = { title: 'Annual report', chapters: 5 };

let service: TestService;
let key: string;
let cli: Buffer;

const post = (url: string, body: unknown) => service.call('POST', url, { key, body });
async function a1(body: Record<string, unknown>): Promise<Buffer> {
  const reply = await post('/api/documents/report', { props, ...body });
  assert.equal(reply.status, 200, describeReply(reply));
  return reply.body;
}

describe('bookmarks and tags through the API and jobs (issue 38)', { timeout: 400_000 }, () => {
  before(async () => {
    service = await startTestService();
    ({ key } = await service.team('acme', 100));
    const { artifact } = await bundleTemplate(REPORT);
    const published = await post('/api/templates', { id: 'report', artifact });
    assert.equal(published.status, 201, describeReply(published));
    const out = path.join(tempDir(), 'cli.pdf');
    const propsFile = path.join(path.dirname(out), 'props.json');
    fs.writeFileSync(propsFile, JSON.stringify(props));
    const rendered = await runCli(['render', REPORT, '--props', propsFile, '-o', out], { timeoutMs: 120_000 });
    assert.equal(rendered.code, 0, rendered.describe());
    cli = fs.readFileSync(out);
  });
  after(() => service?.close());

  test('A1 answers the outline and the structure tree the CLI prints', async () => {
    const pdf = await a1({});
    assert.equal(pdfInfoFields(pdf).Tagged, 'yes');
    assert.ok(pdfOutline(cli).length === 5, 'the CLI printed the five chapters');
    assert.deepEqual(pdfOutline(pdf), pdfOutline(cli));
    assert.equal(pdfStructure(pdf), pdfStructure(cli));
  });

  test("a job's row answers the same outline and structure tree", async () => {
    const submitted = await post('/api/jobs', { template: 'report', rows: [props] });
    assert.equal(submitted.status, 202, describeReply(submitted));
    const id = submitted.json().id as string;
    const job = await waitFor(
      async () => (await service.call('GET', `/api/jobs/${id}`, { key })).json(),
      (value) => FINAL.includes(value.status),
      `job ${id} to finish`,
    );
    assert.equal(job.status, 'completed', JSON.stringify(job));
    const row = await service.call('GET', new URL(job.rows[0].url).pathname, {});
    assert.equal(row.status, 200, describeReply(row));
    assert.deepEqual(pdfOutline(row.body), pdfOutline(cli));
    assert.equal(pdfStructure(row.body), pdfStructure(cli));
  });

  test('outline false, tagged false and pdfua true are honoured; tagged false with outline true is a 400', async () => {
    const [noOutline, untagged, pdfua] = await Promise.all([a1({ outline: false }), a1({ tagged: false }), a1({ pdfua: true })]);
    assert.deepEqual(pdfOutline(noOutline), []);
    assert.equal(pdfInfoFields(noOutline).Tagged, 'yes');
    assert.equal(pdfInfoFields(untagged).Tagged, 'no');
    assert.deepEqual(pdfOutline(untagged), []);
    assert.match(pdfXmp(pdfua), /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.ok(pdfLinks(pdfua).every((link) => link.contents), 'every link has /Contents');
    const refused = await post('/api/documents/report', { props, tagged: false, outline: true });
    assert.equal(refused.status, 400, describeReply(refused));
    assert.match(refused.json().error, /read from the PDF's tags/);
  });
});
