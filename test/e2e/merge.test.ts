/**
 * Merging from the installed package (issue 39): `imprint merge`, `--prepend`/`--append` on an
 * embedded render and generate, and `prepend`/`append` through a real `imprint serve` (A2 and a
 * job's rows). Checked with qpdf and poppler: the page count is the sum, the outline has one
 * entry per part opening its first page (qpdf --json outlines), `qpdf --check` is clean, a
 * part's internal link still opens its own page, and a part at a private address is refused
 * where the egress rules forbid it and fetched from a loopback server where they allow it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { INVOICE_FILE, waitFor } from '../helpers/jobs.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const dir = tempDir('imprint-merge-');
const cli = cliWithDataDir();
let cover: string;
let terms: string;
let server: http.Server;
let base: string;

interface OutlineItem {
  title: string;
  destpageposfrom1: number;
  kids: OutlineItem[];
}

function outline(pdf: string | Buffer): OutlineItem[] {
  const file = typeof pdf === 'string' ? pdf : path.join(dir, `outline-${Date.now()}-${Math.random()}.pdf`);
  if (typeof pdf !== 'string') fs.writeFileSync(file, pdf);
  return JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8', timeout: 30_000 })).outlines;
}

/** qpdf --check exits 0 with no warnings (exit 3 is "warnings"). */
function checkClean(file: string): void {
  const out = execFileSync('qpdf', ['--check', file], { encoding: 'utf8', timeout: 30_000 });
  assert.match(out, /No syntax or stream encoding errors found/);
  assert.doesNotMatch(out, /WARNING/i);
}

const write = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};

async function generated(name: string, html: string): Promise<string> {
  const out = path.join(dir, `${name}.pdf`);
  const result = await cli.run(['generate', '--html', write(`${name}.html`, html), '-o', out]);
  assert.equal(result.code, 0, result.describe());
  return out;
}

before(async () => {
  cover = await generated('cover', '<title>Cover letter</title><h1>Dear customer</h1>');
  // Two pages, the first linking to the second by a named destination (Chromium writes /Dest /name).
  terms = await generated('terms', '<title>Terms and conditions</title><h1>Terms one</h1><a href="#two">see clause two</a><h1 id="two" style="break-before: page">Clause two</h1>');
  server = http.createServer((req, res) => {
    const file = req.url === '/docs/terms.pdf' ? terms : undefined;
    res.writeHead(file ? 200 : 404, { 'content-type': file ? 'application/pdf' : 'text/plain' });
    res.end(file ? fs.readFileSync(file) : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The page number the link annotation on `page` of `file` opens, from qpdf's objects. */
function linkTarget(file: string, page: number): number {
  const json = JSON.parse(execFileSync('qpdf', ['--json', file], { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }));
  const objects = json.qpdf[1] as Record<string, { value?: Record<string, unknown> }>;
  const pageRefs: string[] = json.pages.map((entry: { object: string }) => entry.object);
  const pageDict = objects[`obj:${pageRefs[page - 1]}`].value as { '/Annots': string[] | string };
  const annots = Array.isArray(pageDict['/Annots']) ? pageDict['/Annots'] : (objects[`obj:${pageDict['/Annots']}`].value as unknown as string[]);
  const link = annots.map((ref) => objects[`obj:${ref}`].value as Record<string, unknown>).find((annot) => annot['/Subtype'] === '/Link' && annot['/Dest']);
  assert.ok(link, `page ${page} has an internal link`);
  return pageRefs.indexOf((link['/Dest'] as string[])[0]) + 1;
}

describe('imprint merge', { timeout: 300_000 }, () => {
  test('two files: pages summed, one outline entry per file opening its first page, links kept, qpdf --check clean', async () => {
    const out = path.join(dir, 'merged.pdf');
    const result = await cli.run(['merge', cover, terms, '-o', out]);
    assert.equal(result.code, 0, result.describe());
    assert.equal(pdfInfo(out).pages, pdfInfo(cover).pages + pdfInfo(terms).pages);
    const items = outline(out);
    assert.deepEqual(items.map((item) => [item.title, item.destpageposfrom1]), [['Cover letter', 1], ['Terms and conditions', 2]]);
    checkClean(out);
    assert.equal(linkTarget(out, 2), 3, "the terms' link opens clause two, now page 3");
    assert.match(pdfText(out, 3), /Clause two/);
  });

  test('-o - writes to stdout; "-" reads a file from stdin; a part without a Title is named by its file name', async () => {
    // qpdf copies the pages alone: a PDF with no Info dictionary, so no Title.
    const untitled = path.join(dir, 'appendix.pdf');
    execFileSync('qpdf', ['--empty', '--pages', terms, '1', '--', untitled], { timeout: 30_000 });
    const result = await cli.run(['merge', '-', untitled, '-o', '-'], { stdin: fs.readFileSync(cover) });
    assert.equal(result.code, 0, result.describe());
    assert.equal(pdfInfo(result.stdout).pages, 2);
    assert.deepEqual(outline(result.stdout).map((item) => item.title), ['Cover letter', 'appendix.pdf']);
  });

  test('a missing, a non-PDF and an encrypted input are refused, naming the file', async () => {
    const missing = await cli.run(['merge', cover, path.join(dir, 'nope.pdf'), '-o', path.join(dir, 'x.pdf')]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr.toString(), /nope\.pdf: no such file/);
    const text = write('notes.pdf', 'just some text');
    const notPdf = await cli.run(['merge', cover, text, '-o', path.join(dir, 'x.pdf')]);
    assert.notEqual(notPdf.code, 0);
    assert.match(notPdf.stderr.toString(), /notes\.pdf is not a PDF/);
    const locked = path.join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', terms, locked], { timeout: 30_000 });
    const encrypted = await cli.run(['merge', cover, locked, '-o', path.join(dir, 'x.pdf')]);
    assert.notEqual(encrypted.code, 0);
    assert.match(encrypted.stderr.toString(), /locked\.pdf is encrypted/);
    assert.equal(fs.existsSync(path.join(dir, 'x.pdf')), false, 'nothing written');
  });
});

describe('render and generate with --prepend/--append (embedded)', { timeout: 300_000 }, () => {
  test('render a local template with --prepend and --append: one entry per part, in order', async () => {
    const out = path.join(dir, 'pack.pdf');
    const result = await cli.run(['render', INVOICE_FILE, '--prepend', cover, '--append', terms, '--title', 'Invoice INV-1', '-o', out]);
    assert.equal(result.code, 0, result.describe());
    const invoicePages = pdfInfo(out).pages - 3;
    assert.ok(invoicePages >= 1);
    const items = outline(out);
    assert.deepEqual(items.map((item) => [item.title, item.destpageposfrom1]), [['Cover letter', 1], ['Invoice INV-1', 2], ['Terms and conditions', 2 + invoicePages]]);
    checkClean(out);
    assert.match(pdfText(out, 1), /Dear customer/);
  });

  test('generate --append <loopback URL> with --allow-local fetches it; without, the private address is refused', async () => {
    const html = write('letter.html', '<title>Letter</title><p>Body of the letter</p>');
    const out = path.join(dir, 'letter.pdf');
    const allowed = await cli.run(['generate', '--html', html, '--allow-local', '--append', `${base}/docs/terms.pdf`, '-o', out]);
    assert.equal(allowed.code, 0, allowed.describe());
    assert.equal(pdfInfo(out).pages, 3);
    assert.deepEqual(outline(out).map((item) => item.title), ['Letter', 'Terms and conditions']);
    checkClean(out);
    const refused = await cli.run(['generate', '--html', html, '--append', `${base}/docs/terms.pdf`, '-o', path.join(dir, 'refused.pdf')]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr.toString(), /append\[0\]: Refusing to render http:\/\/127\.0\.0\.1:\d+\/docs\/terms\.pdf/);
    assert.match(refused.stderr.toString(), /--allow-local/);
  });
});

describe('prepend/append through the service', { timeout: 300_000 }, () => {
  const operator = cliWithDataDir();
  let serve: ServeProcess;
  let key: string;
  const post = async (route: string, body: unknown) => {
    const answer = await request(`${serve.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: answer.statusCode, body: Buffer.from(await answer.body.arrayBuffer()) };
  };
  const coverPart = () => ({ pdf: fs.readFileSync(cover).toString('base64'), name: 'cover.pdf' });

  before(async () => {
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    const created = await operator.run(['key', 'create', '--team', 'acme']);
    assert.equal(created.code, 0, created.describe());
    key = created.stdout.toString().trim();
    // The loopback test server is the one private destination the operator allows.
    serve = await startServeProcess({ dataDir: operator.dataDir, args: ['--allow-host', '127.0.0.1'] });
  });
  after(async () => {
    assert.equal(await serve?.stop(), 0, serve?.output());
  });

  test('POST /api/generate with a base64 part and a part fetched from the allowed loopback server', async () => {
    const answer = await post('/api/generate', { html: '<title>Statement</title><p>Statement body</p>', prepend: [coverPart()], append: [{ url: `${base}/docs/terms.pdf` }] });
    assert.equal(answer.status, 200, answer.body.toString());
    const file = write('api.pdf', answer.body);
    assert.equal(pdfInfo(file).pages, 4);
    assert.deepEqual(outline(file).map((item) => [item.title, item.destpageposfrom1]), [['Cover letter', 1], ['Statement', 2], ['Terms and conditions', 3]]);
    checkClean(file);
  });

  test('a part at a private address the policy forbids is refused with 403 URL_DENIED; a bad part with 400', async () => {
    const denied = await post('/api/generate', { html: '<p>x</p>', append: [{ url: 'http://10.20.30.40/terms.pdf' }] });
    assert.equal(denied.status, 403, denied.body.toString());
    assert.equal(JSON.parse(denied.body.toString()).code, 'URL_DENIED');
    assert.match(JSON.parse(denied.body.toString()).error, /^append\[0\]: /);
    const bad = await post('/api/generate', { html: '<p>x</p>', prepend: [{ pdf: Buffer.from('hello').toString('base64') }] });
    assert.equal(bad.status, 400, bad.body.toString());
    assert.match(JSON.parse(bad.body.toString()).error, /prepend\[0\]\.pdf: the bytes are not a PDF/);
  });

  test("a job's rows each get the parts", async () => {
    const submitted = await post('/api/jobs', { rows: [{ html: '<title>Row one</title><p>one</p>' }, { html: '<title>Row two</title><p>two</p>' }], prepend: [coverPart()], append: [{ url: `${base}/docs/terms.pdf` }] });
    assert.equal(submitted.status, 202, submitted.body.toString());
    const { id } = JSON.parse(submitted.body.toString());
    const job = await waitFor(
      async () => JSON.parse((await (await request(`${serve.url}/api/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } })).body.text())),
      (value: { status: string; rows: { url: string }[] }) => ['completed', 'failed', 'cancelled'].includes(value.status),
      'the job to finish',
    );
    assert.equal(job.status, 'completed', JSON.stringify(job));
    for (const [index, row] of job.rows.entries()) {
      const pdf = Buffer.from(await (await request(row.url)).body.arrayBuffer());
      assert.equal(pdfInfo(pdf).pages, 4);
      assert.deepEqual(outline(pdf).map((item) => item.title), ['Cover letter', index === 0 ? 'Row one' : 'Row two', 'Terms and conditions']);
    }
  });
});
