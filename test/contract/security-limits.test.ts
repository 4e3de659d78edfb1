/**
 * Issue 5, limits: each answered with a clear error object, the service rendering normally
 * after each. The service runs with the default props depth (32) and small page, PDF and
 * body limits, so the tests stay fast; every limit is a setting of `imprint serve`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { countPdfPages } from '../../src/core/limits/pdf-pages.js';
import { DEFAULT_RENDER_LIMITS } from '../../src/core/limits/render-limits.js';
import type { Artifact } from '../../src/core/artifact.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type Reply, type TestService } from './helpers/service.js';

const MAX_PAGES = 20;
const MAX_PDF_BYTES = 256 * 1024;
const REQUEST_BYTES = 256 * 1024;
const ARTIFACT_BYTES = 1024 * 1024;

let service: TestService;
let team: { name: string; key: string };
let pages: Artifact;

/** The code each status here stands for: every 422 of this file is one document past a limit, not the team's. */
const CODES: Record<number, string> = { 400: 'INVALID_INPUT', 413: 'PAYLOAD_TOO_LARGE', 422: 'DOCUMENT_TOO_LARGE' };

function expectError(reply: Reply, status: number, pattern: RegExp): string {
  assert.equal(reply.status, status, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId']);
  assert.equal(body.code, CODES[status], describeReply(reply));
  assert.match(body.error, pattern);
  return body.error;
}

const render = (props: unknown, extra: object = {}) => service.call('POST', '/api/documents/pages', { key: team.key, body: { props, ...extra } });
const generate = (body: unknown) => service.call('POST', '/api/generate', { key: team.key, body });
const issuedFiles = () => (fs.existsSync(path.join(service.dataDir, 'files')) ? fs.readdirSync(path.join(service.dataDir, 'files')) : []);
const usage = async () => service.operator.usage((await service.operator.getTeam(team.name))!.id);

/** `levels` objects nested in each other. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < levels; i++) value = { child: value };
  return value;
}

const pageBreaks = (count: number) => Array.from({ length: count }, (_, i) => `<h1 style="break-after: page">Sheet ${i + 1}</h1>`).join('');

/** Random pixels in a canvas: printed as an image that does not compress (~360 KB of PDF). */
const NOISE_HTML = `<canvas id="c" width="300" height="300"></canvas><script>
  const context = document.getElementById('c').getContext('2d');
  const image = context.createImageData(300, 300);
  for (let i = 0; i < image.data.length; i++) image.data[i] = (Math.random() * 256) | 0;
  context.putImageData(image, 0, 0);
</script><p>Noise</p>`;

async function stillRenders() {
  const reply = await render({ pages: 1 });
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(pdfText(reply.body), /Page 1 of 1/);
}

before(async () => {
  service = await startTestService({
    renderLimits: { ...DEFAULT_RENDER_LIMITS, maxPages: MAX_PAGES, maxPdfBytes: MAX_PDF_BYTES },
    limits: { requestBytes: REQUEST_BYTES, artifactBytes: ARTIFACT_BYTES },
  });
  team = await service.team('limited');
  pages = await fixtureArtifact('Pages.tsx');
  const published = await service.call('POST', '/api/templates', { key: team.key, body: { id: 'pages', artifact: pages } });
  assert.equal(published.status, 201, describeReply(published));
});

after(() => service?.close());

describe('props depth (400, default 32 levels)', () => {
  test('32 levels render', async () => {
    const reply = await render({ pages: 1, extra: nested(31) });
    assert.equal(reply.status, 200, describeReply(reply));
  });

  test('33 levels: 400 naming the limit, before any browser work, nothing counted', async () => {
    const before_ = await usage();
    expectError(await render({ pages: 1, extra: nested(32) }), 400, /Invalid props: they nest more than 32 levels deep/);
    assert.equal(await usage(), before_);
  });

  test('arrays count as levels; a 50 000-deep body is refused as quickly', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const reply = await service.call('POST', '/api/documents/pages', { key: team.key, rawBody: `{"props": {"pages": 1, "deep": ${deep}}}`, headers: { 'content-type': 'application/json' } });
    expectError(reply, 400, /more than 32 levels/);
    await stillRenders();
  });
});

describe('pages per document (422 naming the limit)', () => {
  test('the page count is read from the PDF as pdfinfo reads it', async () => {
    for (const count of [1, 9, MAX_PAGES]) {
      const reply = await render({ pages: count });
      assert.equal(reply.status, 200, describeReply(reply));
      assert.equal(countPdfPages(reply.body), count);
      assert.equal(pdfInfo(reply.body).pages, count);
    }
  });

  test('A1: one page over the limit is a 422 that names it, and nothing is counted or stored', async () => {
    const before_ = await usage();
    expectError(await render({ pages: MAX_PAGES + 1 }), 422, new RegExp(`has ${MAX_PAGES + 1} pages, more than the ${MAX_PAGES} pages per document`));
    expectError(await render({ pages: 500 }, { format: 'json' }), 422, /has 500 pages/);
    assert.equal(await usage(), before_, 'no generation counted');
    assert.deepEqual(issuedFiles(), [], 'no PDF kept behind a download URL');
    await stillRenders();
  });

  test('A2: raw HTML with too many pages too', async () => {
    expectError(await generate({ html: pageBreaks(MAX_PAGES + 5) }), 422, new RegExp(`more than the ${MAX_PAGES} pages`));
    const ok = await generate({ html: pageBreaks(MAX_PAGES) });
    assert.equal(ok.status, 200, describeReply(ok));
    assert.equal(pdfInfo(ok.body).pages, MAX_PAGES);
  });
});

describe('output size (422 naming the limit)', () => {
  test('a PDF over the limit is refused in every form; a small one passes', async () => {
    for (const format of ['pdf', 'base64', 'json']) {
      expectError(await generate({ html: NOISE_HTML, format }), 422, /The document is [\d.]+ KiB, larger than the 256 KiB per document this service returns/);
    }
    assert.deepEqual(issuedFiles(), []);
    const small = await generate({ html: '<p>Small</p>' });
    assert.equal(small.status, 200, describeReply(small));
  });
});

/**
 * A long document's PDF comes back from Chromium as a stream (core/render/print-pdf.ts: 20 pages
 * of content and up, as laid out on screen before the print), not as one answer: the same limits
 * hold on that path. Each sheet prints as one page and is two pages tall on screen, so even 20
 * sheets (the limit) are streamed.
 */
const tallSheets = (count: number, extra = '') =>
  `<style>@media screen { section { height: 2400px } }</style>${extra}${Array.from({ length: count }, (_, i) => `<section style="break-after: page">Sheet ${i + 1}</section>`).join('')}`;

describe('a long document, streamed from Chromium (422 naming the limit)', () => {
  test('past the page limit, and past the byte limit, in every form; at the limit it passes whole', async () => {
    expectError(await generate({ html: tallSheets(MAX_PAGES + 10) }), 422, new RegExp(`has ${MAX_PAGES + 10} pages, more than the ${MAX_PAGES} pages per document`));
    for (const format of ['pdf', 'json']) {
      expectError(await generate({ html: tallSheets(MAX_PAGES, NOISE_HTML), format }), 422, /The document is [\d.]+ KiB, larger than the 256 KiB per document this service returns/);
    }
    assert.deepEqual(issuedFiles(), [], 'no PDF kept behind a download URL');
    const ok = await generate({ html: tallSheets(MAX_PAGES) });
    assert.equal(ok.status, 200, describeReply(ok));
    assert.equal(pdfInfo(ok.body).pages, MAX_PAGES);
    assert.match(pdfText(ok.body, MAX_PAGES), new RegExp(`Sheet ${MAX_PAGES}\\b`));
  });
});

describe('request bodies and uploads (413), template ids (400)', () => {
  test('A1 and A2 bodies over the limit: 413 naming it', async () => {
    const padding = 'x'.repeat(REQUEST_BYTES);
    expectError(await render({ pages: 1, padding }), 413, /larger than the 256 KiB this endpoint accepts/);
    expectError(await generate({ html: `<p>${padding}</p>` }), 413, /larger than the 256 KiB/);
  });

  test('an upload over the limit: 413 naming it, nothing stored', async () => {
    const big = { ...pages, sourceMap: 'x'.repeat(ARTIFACT_BYTES) };
    expectError(await service.call('POST', '/api/templates', { key: team.key, body: { id: 'too-big', artifact: big } }), 413, /larger than the 1 MiB/);
    const listed = (await service.call('GET', '/api/templates', { key: team.key })).json();
    assert.ok(!listed.templates.some((t: { id: string }) => t.id === 'too-big'));
  });

  test('ids that break the rules: 400 naming the rules', async () => {
    for (const id of ['../escape', '.hidden', 'a..b', 'with space', 'slash/inside', 'x'.repeat(129), 'ünïcode', '']) {
      const reply = await service.call('POST', '/api/templates', { key: team.key, body: { id, artifact: pages } });
      expectError(reply, 400, /id/);
    }
    await stillRenders();
  });
});
