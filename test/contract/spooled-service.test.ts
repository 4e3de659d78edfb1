/**
 * Big documents through the service in bounded memory (issue 40), against the installed
 * `imprint serve`: a print past IMPRINT_SPOOL_FROM is written to a private folder
 * `imprint-spool-XXXXXX` in the service's TMPDIR, finished there, delivered from the file and
 * removed. Three services, each with a TMPDIR of its own that the test watches
 * (helpers/spool-folder.ts): two that spool (on SQLite and files, on PostgreSQL and S3) and one
 * with the default threshold that does not, whose answers are the reference.
 *
 * - A2 and A1 as application/pdf: 200, Content-Length the body's length, the bytes those of the
 *   unspooled service (deterministic), the whole statement by content (pdfinfo, pdftotext).
 * - `json` on the files store and on S3: the URL downloads those bytes; `base64` decodes to them.
 * - A job of two rows: both rows' PDFs whole, through its NDJSON stream and their downloads.
 * - --max-pages and --max-pdf-size: 422 DOCUMENT_TOO_LARGE for a spooled document.
 * - A client that reads the headers and one chunk of an 8 MB answer and hangs up: the spool is
 *   removed, the service answers the next request.
 * - A TMPDIR that stops being a folder: the long document fails with the operator's message in
 *   the log (Chromium's stream file lives there as well as the spool), a short one renders, and
 *   long ones render again once it is back.
 *
 * Spooling is seen, not trusted: each spooled exchange must have made exactly its spool folders
 * (an inotify watch), the reference's none; and after every answer none may be left, waited for
 * with a deadline (the file goes when the answer's connection closes).
 *
 * Every service is started with the start deadline of helpers/serve-process.ts and stopped in
 * after(); every request has a deadline; the file's tests run one after the other, one render
 * slot per service, on the 2 busy cores of CI.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertWholeStatement, bigStatementHtml, type StatementShape } from '../helpers/big-statement.js';
import { tempDir } from '../helpers/cli.js';
import { readJobStream } from '../helpers/jobs.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestServices, type LogEntry, type Reply, type TestService } from './helpers/service.js';
import { watchSpoolFolder, type SpoolFolder } from './helpers/spool-folder.js';

/** 40 tall sheets print to about 73 KiB before their finishing (47 KB after): well past this, so they spool. */
const SPOOL_FROM = '32KiB';
const SHEETS = 40;
/** Above SHEETS, so only the refused document is refused for its pages. */
const MAX_PAGES = 45;
/** Above a statement of SHEETS (47 KB), under one with a picture (about 520 KB). */
const MAX_PDF_BYTES = 256 << 10;

/** A render (tens of sheets: a second or two here, 6 to 10 s for the 8 MB one on a loaded machine). */
const REQUEST_MS = 60_000;
const TEST_TIMEOUT_MS = 3 * REQUEST_MS;

const statement = (sheets: number, shape: StatementShape = {}) => bigStatementHtml(sheets, { tallSheets: true, ...shape });
const generate = (sheets: number, shape?: StatementShape) => ({ html: statement(sheets, shape), deterministic: true });

/**
 * The services' TMPDIRs, short: Chromium's singleton socket ends up at
 * <TMPDIR>/imprint-profile-XXXXXX/tmp/org.chromium.Chromium.XXXXXX/SingletonSocket, and past a
 * Unix socket's 107 bytes (a TMPDIR longer than about 34 characters) Chromium stops at start.
 */
const scratch = tempDir('imprint-st-');
const tmpOf = (name: string) => path.join(scratch, name);
/** The spooling SQLite service's TMPDIR is a link to its folder, so the last test can point it at a file. */
const spooledTmp = tmpOf('sp');
const spooledTmpLink = tmpOf('sp-link');
const notAFolder = tmpOf('not-a-folder');

let spooled: TestService;
let onS3: TestService;
let plain: TestService;
const keys = new Map<TestService, string>();
const folders = new Map<TestService, SpoolFolder>();
/** The unspooled service's A2 answer for generate(SHEETS): the bytes every spooled form must give. */
let reference: Buffer;

before(
  async () => {
    for (const name of ['sp', 's3', 'plain']) fs.mkdirSync(tmpOf(name));
    fs.symlinkSync(spooledTmp, spooledTmpLink);
    fs.writeFileSync(notAFolder, 'a file where the temp folder was');
    const spooling = (tmp: string) => ({ TMPDIR: tmp, IMPRINT_SPOOL_FROM: SPOOL_FROM });
    [spooled, onS3, plain] = await startTestServices([
      { backend: 'sqlite', env: spooling(spooledTmpLink), renderLimits: { maxPages: MAX_PAGES, maxPdfBytes: MAX_PDF_BYTES }, pool: { concurrency: 1 } },
      { backend: 'postgres-s3', env: spooling(tmpOf('s3')), pool: { concurrency: 1 } },
      { backend: 'sqlite', env: { TMPDIR: tmpOf('plain') }, pool: { concurrency: 1 } },
    ]);
    folders.set(spooled, watchSpoolFolder(spooledTmp)).set(onS3, watchSpoolFolder(tmpOf('s3'))).set(plain, watchSpoolFolder(tmpOf('plain')));
    const artifact = await fixtureArtifact('Statement.tsx');
    for (const service of [spooled, onS3, plain]) {
      const { key } = await service.team('statements');
      keys.set(service, key);
      if (service === onS3) continue;
      const published = await service.call('POST', '/api/templates', { key, body: { id: 'statement', artifact }, timeoutMs: REQUEST_MS });
      assert.equal(published.status, 201, describeReply(published));
    }
    reference = await exchange(plain, 0, 'the unspooled A2 render', async () => pdfAnswer(plain, await call(plain, '/api/generate', generate(SHEETS))));
    assertWholeStatement(reference, SHEETS);
  },
  { timeout: TEST_TIMEOUT_MS },
);

after(async () => {
  for (const folder of folders.values()) folder.close();
  await Promise.all([spooled, onS3, plain].map((service) => service?.close()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

const call = (service: TestService, urlPath: string, body?: unknown) => service.call(body === undefined ? 'GET' : 'POST', urlPath, { key: keys.get(service), body, timeoutMs: REQUEST_MS });

/**
 * Runs `work` against `service` and checks its TMPDIR: exactly `spools` spool folders made during
 * it (0: nothing spooled), none left afterwards.
 */
async function exchange<T>(service: TestService, spools: number, what: string, work: () => Promise<T>): Promise<T> {
  const folder = folders.get(service)!;
  folder.takeMade();
  const value = await work();
  await folder.waitUntilEmpty(`${what}: a spool folder left behind`);
  assert.equal(folder.takeMade().length, spools, `${what}: ${spools} spool folder(s) made in the service's TMPDIR`);
  return value;
}

/** The service's log entry for a request that failed (its error in full: the client is told only an id). */
const failureLogged = (service: TestService, reply: Reply): LogEntry | undefined =>
  service.logs.map((line) => JSON.parse(line) as LogEntry).find((entry) => entry.reqId === reply.headers['x-request-id'] && entry.msg === 'request failed');

/** The answer, and for a failure what the service logged of it. */
const described = (service: TestService, reply: Reply) => `${describeReply(reply)}\nlogged: ${JSON.stringify(failureLogged(service, reply)?.err ?? null)}`;

/** `service`'s 200 PDF answer whose Content-Length is its body's length; its bytes. */
function pdfAnswer(service: TestService, reply: Reply): Buffer {
  assert.equal(reply.status, 200, described(service, reply));
  assert.match(String(reply.headers['content-type']), /^application\/pdf/);
  assert.equal(Number(reply.headers['content-length']), reply.body.length, 'Content-Length is the length of the body sent');
  return reply.body;
}

/** The PDF behind a download URL of `service` (a `json` result's, a job row's). */
async function download(service: TestService, url: string): Promise<Buffer> {
  assert.ok(url.startsWith(service.url), url);
  return pdfAnswer(service, await call(service, new URL(url).pathname));
}

async function jsonResultPdf(service: TestService, reply: Reply): Promise<Buffer> {
  assert.equal(reply.status, 200, described(service, reply));
  return download(service, reply.json<{ url: string }>().url);
}

function assertRefused(reply: Reply, message: RegExp): void {
  assert.equal(reply.status, 422, describeReply(reply));
  const body = reply.json();
  assert.equal(body.code, 'DOCUMENT_TOO_LARGE', describeReply(reply));
  assert.match(body.error, message);
}

describe('a spooled PDF answered as application/pdf', { timeout: TEST_TIMEOUT_MS }, () => {
  test('POST /api/generate: the unspooled bytes, Content-Length and all', async () => {
    const pdf = await exchange(spooled, 1, 'A2 spooled', async () => pdfAnswer(spooled, await call(spooled, '/api/generate', generate(SHEETS))));
    assert.ok(pdf.equals(reference), `the spooled answer (${pdf.length} bytes) is the unspooled one (${reference.length} bytes)`);
    assertWholeStatement(pdf, SHEETS);
  });

  test('POST /api/documents/{id} of a published template: the unspooled bytes, Content-Length and all', async () => {
    const body = { props: { sheets: SHEETS }, deterministic: true };
    const unspooled = await exchange(plain, 0, 'A1 unspooled', async () => pdfAnswer(plain, await call(plain, '/api/documents/statement', body)));
    const pdf = await exchange(spooled, 1, 'A1 spooled', async () => pdfAnswer(spooled, await call(spooled, '/api/documents/statement', body)));
    assert.ok(pdf.equals(unspooled), `the spooled answer (${pdf.length} bytes) is the unspooled one (${unspooled.length} bytes)`);
    assertWholeStatement(pdf, SHEETS);
  });
});

describe('a spooled PDF as a json or base64 result', { timeout: TEST_TIMEOUT_MS }, () => {
  test('json, files store: the URL downloads the unspooled bytes', async () => {
    const before = await spooled.objectNames('files');
    const pdf = await exchange(spooled, 1, 'json on files', async () => jsonResultPdf(spooled, await call(spooled, '/api/generate', { ...generate(SHEETS), format: 'json' })));
    assert.ok(pdf.equals(reference), 'the download is the unspooled answer');
    assert.equal((await spooled.objectNames('files')).length, before.length + 1, 'one file issued');
  });

  test('json, S3: the URL downloads the unspooled bytes', async () => {
    const pdf = await exchange(onS3, 1, 'json on S3', async () => jsonResultPdf(onS3, await call(onS3, '/api/generate', { ...generate(SHEETS), format: 'json' })));
    assert.ok(pdf.equals(reference), 'the download is the unspooled answer');
    assert.equal((await onS3.objectNames('files')).length, 1, 'the file is in the bucket');
  });

  test('base64: decodes to the unspooled bytes', async () => {
    const reply = await exchange(spooled, 1, 'base64', () => call(spooled, '/api/generate', { ...generate(SHEETS), format: 'base64' }));
    assert.equal(reply.status, 200, describeReply(reply));
    assert.ok(Buffer.from(reply.json().data, 'base64').equals(reference), 'the decoded data is the unspooled answer');
  });
});

describe('a job of two spooled rows', { timeout: TEST_TIMEOUT_MS }, () => {
  test("each row's PDF whole in the job's stream and behind its URL", async () => {
    const sheets = [SHEETS, SHEETS + 2];
    const lines = await exchange(spooled, 2, 'a job of two rows', async () => {
      const submitted = await call(spooled, '/api/jobs', { rows: sheets.map((n) => ({ html: statement(n) })), deterministic: true });
      assert.equal(submitted.status, 202, describeReply(submitted));
      // The stream follows the job to its end: both rows rendered, issued and their spools given up.
      return readJobStream(spooled.url, submitted.json().id, keys.get(spooled)!);
    });
    const last = lines[lines.length - 1];
    assert.deepEqual([last.job?.status, last.job?.done, last.job?.failed], ['completed', 2, 0], JSON.stringify(last));
    const rows = lines.filter((line) => line.row).sort((a, b) => a.row.row - b.row.row);
    assert.deepEqual(
      rows.map((line) => line.row.row),
      [1, 2],
    );
    for (const [index, line] of rows.entries()) {
      const pdf = Buffer.from(line.pdf, 'base64');
      assertWholeStatement(pdf, sheets[index]);
      assert.ok((await download(spooled, line.row.url)).equals(pdf), `row ${line.row.row}: its URL downloads the stream's bytes`);
    }
  });
});

describe("the service's limits on a spooled document", { timeout: TEST_TIMEOUT_MS }, () => {
  test('--max-pages: 422 DOCUMENT_TOO_LARGE with the spooled page count; nothing kept', async () => {
    const files = await spooled.objectNames('files');
    const reply = await exchange(spooled, 1, 'refused for its pages', () => call(spooled, '/api/generate', generate(MAX_PAGES + 5)));
    assertRefused(reply, new RegExp(`The document has ${MAX_PAGES + 5} pages, more than the ${MAX_PAGES} pages per document this service renders\\.`));
    assert.deepEqual(await spooled.objectNames('files'), files, 'no file issued');
  });

  test('--max-pdf-size: 422 DOCUMENT_TOO_LARGE; nothing kept', async () => {
    const files = await spooled.objectNames('files');
    const reply = await exchange(spooled, 1, 'refused for its size', () => call(spooled, '/api/generate', { ...generate(SHEETS, { pictures: 1 }), format: 'json' }));
    assertRefused(reply, /The document is [\d.]+ KiB, larger than the 256 KiB per document this service returns\./);
    assert.deepEqual(await spooled.objectNames('files'), files, 'no file issued');
  });
});

/** What a client that hung up after the first chunk saw. */
interface Abandoned {
  status: number;
  contentLength: number;
  firstChunk: Buffer;
  /** The spool folders in the service's TMPDIR when the first chunk came: the answer still being sent. */
  spoolsThen: string[];
  /** The error the hang-up gave the answer's stream, if any (ours: it was not read to its end). */
  abortError?: string;
}

/**
 * Asks `service` for `body`'s PDF over a connection of its own, reads the headers and the first
 * chunk, then destroys the socket; resolves once it is closed.
 */
function abandonAfterFirstChunk(service: TestService, body: unknown): Promise<Abandoned> {
  return new Promise((resolve, reject) => {
    let seen: Abandoned | undefined;
    const request = http.request(`${service.url}/api/generate`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${keys.get(service)}`, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(REQUEST_MS),
    });
    request.on('error', (error) => (seen ? undefined : reject(error)));
    request.on('response', (response) => {
      response.on('error', (error) => {
        if (seen) seen.abortError = (error as NodeJS.ErrnoException).code ?? error.message;
      });
      response.once('data', (chunk: Buffer) => {
        response.pause();
        seen = { status: response.statusCode!, contentLength: Number(response.headers['content-length']), firstChunk: chunk, spoolsThen: folders.get(service)!.present() };
        request.destroy();
      });
    });
    request.on('close', () => (seen ? resolve(seen) : reject(new Error('the connection closed before the first chunk of the answer'))));
    request.end(JSON.stringify(body));
  });
}

describe('a client that hangs up mid-download', { timeout: TEST_TIMEOUT_MS }, () => {
  test('the spool is removed, and the service answers the next request', async () => {
    // 17 pictures: about 8 MB, more than loopback's socket buffers take from a client that
    // reads nothing (4 MiB of Linux's tcp_wmem), so the service is still sending when it hangs up.
    const seen = await exchange(onS3, 1, 'an answer abandoned after its first chunk', () => abandonAfterFirstChunk(onS3, generate(SHEETS, { pictures: 17 })));
    assert.equal(seen.status, 200);
    assert.ok(seen.contentLength > 6e6, `an answer of megabytes (${seen.contentLength} bytes)`);
    assert.equal(seen.firstChunk.subarray(0, 5).toString(), '%PDF-');
    assert.ok(seen.firstChunk.length < seen.contentLength);
    assert.equal(seen.spoolsThen.length, 1, 'the spool was still there, the answer still being sent, when the client hung up');
    const next = await exchange(onS3, 1, 'the next request', async () => pdfAnswer(onS3, await call(onS3, '/api/generate', generate(SHEETS))));
    assert.ok(next.equals(reference), 'the next answer is whole');
  });
});

describe('a TMPDIR that is not a folder', { timeout: TEST_TIMEOUT_MS }, () => {
  test('a long document fails with an error telling the operator what to fix, a short one still renders, and long ones render again once it is back', async () => {
    fs.rmSync(spooledTmpLink);
    fs.symlinkSync(notAFolder, spooledTmpLink);
    try {
      const failed = await exchange(spooled, 0, 'a long document, TMPDIR a file', () => call(spooled, '/api/generate', generate(SHEETS)));
      assert.equal(failed.status, 500, describeReply(failed));
      // The client is told an internal error with its request id; the cause is the operator's, in the log.
      assert.equal(failed.json().code, 'INTERNAL');
      const logged = failureLogged(spooled, failed);
      assert.ok(logged, `the failure is logged for request ${String(failed.headers['x-request-id'])}`);
      assert.ok(String(logged.err?.message).includes(`temporary folder (TMPDIR, ${spooledTmpLink})`), logged.err?.message);
      assert.match(logged.err.message, /Make TMPDIR a writable folder with room for the biggest documents/);

      // Under 20 pages of content Chromium answers the print in one message: no file at all.
      const short = await exchange(spooled, 0, 'a short document, TMPDIR a file', async () => pdfAnswer(spooled, await call(spooled, '/api/generate', { html: bigStatementHtml(3), deterministic: true })));
      assert.equal(pdfInfo(short).pages, 3);
      assert.match(pdfText(short, 3), /Statement sheet 3\b/);
    } finally {
      fs.rmSync(spooledTmpLink);
      fs.symlinkSync(spooledTmp, spooledTmpLink);
    }
    const again = await exchange(spooled, 1, 'a long document, TMPDIR back', async () => pdfAnswer(spooled, await call(spooled, '/api/generate', generate(SHEETS))));
    assert.ok(again.equals(reference));
  });
});
