/**
 * The CLI's jobs end to end: `imprint serve` as a child process (metrics on its API port), a
 * team and key made with the operator commands, the example invoice published, then the CLI
 * (another child process) in remote mode. A batch goes to the service as ONE job (the
 * service's own request counts say so), each PDF is read back by its text, `--summary` and
 * `--skip-existing` behave as in a local batch, `--detach` prints the id alone and `jobs wait`
 * downloads, Ctrl-C leaves the job running and `jobs wait` finishes it without writing any PDF
 * twice (inode and mtime of the earlier files unchanged), `jobs cancel`, `jobs show --json`,
 * `generate --batch` by job, and the refusal of `jobs` in embedded mode.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, cliWithDataDir, EXAMPLES, INPUTS, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { scrape } from '../helpers/prometheus.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const base = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));
const invoiceNo = (n: number) => `INV-JOB-${String(n).padStart(4, '0')}`;
const customer = (n: number) => `Customer ${n} B.V.`;
const props = (n: number) => ({ ...base, invoiceNo: invoiceNo(n), customer: { ...base.customer, name: customer(n) } });
const work = tempDir('imprint-jobs-cli-');

/** A rows file of invoices `from`..`to` (inclusive). */
function rowsFile(name: string, from: number, to: number): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, Array.from({ length: to - from + 1 }, (_, i) => JSON.stringify(props(from + i))).join('\n') + '\n');
  return file;
}

const pdfsIn = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.pdf')).sort();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Each invoice PDF in `dir` carries its own number and customer. */
function assertInvoices(dir: string, numbers: number[]) {
  assert.deepEqual(pdfsIn(dir), numbers.map((n) => `${invoiceNo(n)}.pdf`).sort());
  for (const n of numbers) {
    const text = pdfText(path.join(dir, `${invoiceNo(n)}.pdf`));
    assert.ok(text.includes(invoiceNo(n)) && text.includes(customer(n)), `${invoiceNo(n)}.pdf holds its row:\n${text.slice(0, 400)}`);
  }
}

const serviceData = tempDir('imprint-jobs-serve-');
// Metrics on the API port, to count the requests; loopback allowed for the --webhook test's receiver.
const SERVE_ARGS = ['--metrics-on-api-port', '--allow-host', '127.0.0.1'];
const operator = cliWithDataDir(serviceData);
let serve: ServeProcess;
let env: Record<string, string>;
const cli = (args: string[], options: CliOptions = {}) => runCli(args, { timeoutMs: 180_000, ...options, env: { ...env, ...options.env } });

async function requestCount(method: string, route: string): Promise<number> {
  const metrics = await scrape(`${serve.url}/metrics`);
  return metrics.series('imprint_http_requests_total').filter((s) => s.labels.method === method && s.labels.route === route).reduce((sum, s) => sum + s.value, 0);
}

before(async () => {
  const team = await operator.run(['team', 'create', 'acme', '--limit', '10000']);
  assert.equal(team.code, 0, team.describe());
  const key = await operator.run(['key', 'create', '--team', 'acme']);
  assert.equal(key.code, 0, key.describe());
  const secret = await operator.run(['team', 'webhook-secret', 'acme']);
  assert.equal(secret.code, 0, secret.describe());
  serve = await startServeProcess({ dataDir: serviceData, args: SERVE_ARGS });
  env = { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key.stdout.toString().trim(), IMPRINT_CONFIG_DIR: tempDir('imprint-config-'), IMPRINT_DATA_DIR: tempDir('imprint-user-') };
  const published = await cli(['publish', invoice]);
  assert.equal(published.code, 0, published.describe());
});

after(async () => {
  const code = await serve?.stop();
  assert.equal(code, 0, `serve stops cleanly on SIGTERM:\n${serve?.output()}`);
});

describe('render --batch in remote mode', () => {
  const out = path.join(work, 'out');
  const summaryFile = path.join(work, 'summary.json');
  let jobId: string;

  test('one job, not one request per row; the PDFs come on the job\'s stream (no poll, no download); every PDF named and holding its row; --summary', async () => {
    const [jobsBefore, rendersBefore] = [await requestCount('POST', '/api/jobs'), await requestCount('POST', '/api/documents/:documentId')];
    const [pollsBefore, downloadsBefore, streamsBefore] = [await requestCount('GET', '/api/jobs/:id'), await requestCount('GET', '/api/files/:token'), await requestCount('GET', '/api/jobs/:id/stream')];
    const run = await cli(['render', 'invoice', '--batch', rowsFile('rows.jsonl', 1, 12), '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--summary', summaryFile]);
    assert.equal(run.code, 0, run.describe());
    assert.equal(await requestCount('POST', '/api/jobs'), jobsBefore + 1, 'one job submitted');
    assert.equal(await requestCount('POST', '/api/documents/:documentId'), rendersBefore, 'no render request per row');
    assertInvoices(out, Array.from({ length: 12 }, (_, i) => i + 1));
    assert.deepEqual(fs.readdirSync(out).filter((name) => !name.endsWith('.pdf')), [], 'the PDFs alone: no temp file, the job\'s note gone once all are here');
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.deepEqual({ total: summary.total, ok: summary.ok, failed: summary.failed, skipped: summary.skipped, status: summary.job.status }, { total: 12, ok: 12, failed: 0, skipped: 0, status: 'completed' });
    assert.deepEqual(summary.rows.map((row: { row: number; file: string }) => [row.row, row.file]), Array.from({ length: 12 }, (_, i) => [i + 1, `${invoiceNo(i + 1)}.pdf`]));
    // 1 submit and 1 stream: the CLI counts what it sent, the service what it answered.
    assert.equal(summary.requests, 2, `requests: ${summary.requests}`);
    assert.deepEqual(
      [await requestCount('GET', '/api/jobs/:id'), await requestCount('GET', '/api/files/:token'), await requestCount('GET', '/api/jobs/:id/stream')],
      [pollsBefore, downloadsBefore, streamsBefore + 1],
      'no status poll and no download: one stream',
    );
    assert.match(summary.job.id, UUID);
    jobId = summary.job.id;
    assert.match(run.stderr, new RegExp(`Submitted job ${jobId}: 12 rows`));
  });

  test('jobs show --json: the service\'s status of that job, each row delivered', async () => {
    const shown = await cli(['jobs', 'show', jobId, '--json']);
    assert.equal(shown.code, 0, shown.describe());
    const job = JSON.parse(shown.stdout.toString());
    assert.deepEqual({ id: job.id, status: job.status, total: job.total, done: job.done, failed: job.failed }, { id: jobId, status: 'completed', total: 12, done: 12, failed: 0 });
    assert.deepEqual(job.rows.map((row: { row: number; url?: string }) => [row.row, typeof row.url]), Array.from({ length: 12 }, (_, i) => [i + 1, 'string']));
    const listed = await cli(['jobs', '--json']);
    assert.equal(listed.code, 0, listed.describe());
    assert.ok(JSON.parse(listed.stdout.toString()).jobs.some((listedJob: { id: string }) => listedJob.id === jobId), listed.describe());
  });

  test('jobs archive: every PDF of the job in one zip, named by the job\'s pattern', async () => {
    const zip = path.join(work, 'job.zip');
    const archived = await cli(['jobs', 'archive', jobId, '-o', zip]);
    assert.equal(archived.code, 0, archived.describe());
    const listed = execFileSync('zipinfo', ['-1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(listed, Array.from({ length: 12 }, (_, i) => `${invoiceNo(i + 1)}.pdf`).sort());
    const one = execFileSync('unzip', ['-p', zip, `${invoiceNo(7)}.pdf`]);
    assert.match(pdfText(one), new RegExp(customer(7)));
    assert.deepEqual(fs.readdirSync(work).filter((name) => name.endsWith('.tmp')), [], 'no temp file left');
  });

  test('--skip-existing: only the rows whose file is missing are sent; the others are not touched', async () => {
    for (const n of [2, 5, 11]) fs.rmSync(path.join(out, `${invoiceNo(n)}.pdf`));
    const kept = new Map(pdfsIn(out).map((name) => [name, fs.statSync(path.join(out, name))]));
    const run = await cli(['render', 'invoice', '--batch', path.join(work, 'rows.jsonl'), '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--skip-existing', '--summary', summaryFile]);
    assert.equal(run.code, 0, run.describe());
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.equal(summary.job.total, 3, 'the job holds the three missing rows');
    assert.deepEqual({ ok: summary.ok, skipped: summary.skipped, total: summary.total }, { ok: 3, skipped: 9, total: 12 });
    assert.deepEqual(summary.rows.filter((row: { status: string }) => row.status === 'ok').map((row: { row: number }) => row.row), [2, 5, 11]);
    assertInvoices(out, Array.from({ length: 12 }, (_, i) => i + 1));
    for (const [name, before] of kept) {
      const now = fs.statSync(path.join(out, name));
      assert.deepEqual([now.ino, now.mtimeMs], [before.ino, before.mtimeMs], `${name} left as it was`);
    }
  });
});

describe('rows that fail', () => {
  test('a bad line fails here, props the template refuses fail on the service; each alone, the rest delivered, exit 1', async () => {
    const rows = path.join(work, 'bad.jsonl');
    fs.writeFileSync(rows, [JSON.stringify(props(301)), '{"invoiceNo": ', JSON.stringify({ ...props(303), invoiceNo: 42, customer: 'nobody' }), JSON.stringify(props(304))].join('\n'));
    const out = path.join(work, 'bad');
    const summaryFile = path.join(work, 'bad-summary.json');
    const run = await cli(['render', 'invoice', '--batch', rows, '--out-dir', out, '--name', '{{$row}}.pdf', '--summary', summaryFile]);
    assert.equal(run.code, 1, run.describe());
    assert.match(run.stderr, /2 of 4 rows failed \(rows 2, 3\)/);
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.equal(summary.job.total, 3, 'the line that is not JSON is not sent');
    const byRow = Object.fromEntries(summary.rows.map((row: { row: number; status: string; error?: string }) => [row.row, row]));
    assert.deepEqual([1, 2, 3, 4].map((n) => byRow[n].status), ['ok', 'failed', 'failed', 'ok']);
    assert.match(byRow[2].error, /not valid JSON/);
    assert.match(byRow[3].error, /invoiceNo|customer/, 'the service names the field');
    assert.deepEqual(pdfsIn(out), ['1.pdf', '4.pdf'], '{{$row}} names are the input rows');
    assert.match(pdfText(path.join(out, '4.pdf')), new RegExp(invoiceNo(304)));
  });
});

describe('--detach, jobs wait, Ctrl-C, cancel', () => {
  test('--detach prints the job id alone on stdout; jobs wait downloads every PDF under the batch\'s names', async () => {
    const out = path.join(work, 'detached');
    const submitted = await cli(['render', 'invoice', '--batch', rowsFile('detach.jsonl', 20, 27), '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--detach']);
    assert.equal(submitted.code, 0, submitted.describe());
    const id = submitted.stdout.toString();
    assert.match(id, /^[0-9a-f-]{36}\n$/, submitted.describe());
    const waited = await cli(['jobs', 'wait', id.trim(), '--out-dir', out]);
    assert.equal(waited.code, 0, waited.describe());
    assertInvoices(out, Array.from({ length: 8 }, (_, i) => 20 + i));
  });

  test('Ctrl-C leaves the job running and says how to come back; jobs wait finishes it, writing no PDF twice', async () => {
    const out = path.join(work, 'interrupted');
    const rows = rowsFile('interrupt.jsonl', 100, 159);
    const child = spawn(process.execPath, [BIN, 'render', 'invoice', '--batch', rows, '--out-dir', out, '--name', '{{invoiceNo}}.pdf'], {
      cwd: INPUTS,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_RENDERER: 'off', IMPRINT_MODE: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Ctrl-C once the first PDFs have arrived (waiting on the folder, with a deadline).
    const deadline = Date.now() + 120_000;
    while (!(fs.existsSync(out) && pdfsIn(out).length >= 3)) {
      assert.ok(Date.now() < deadline, `no PDF arrived:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130, stderr);
    const id = new RegExp(`imprint jobs wait (${UUID.source.slice(1, -1)}) --out-dir`).exec(stderr)?.[1];
    assert.ok(id, `the message says how to come back:\n${stderr}`);
    assert.match(stderr, /keeps running on the service/);
    const before = new Map(pdfsIn(out).map((name) => [name, fs.statSync(path.join(out, name))]));
    assert.ok(before.size >= 3 && before.size < 60, `stopped part way: ${before.size} PDFs`);
    assert.deepEqual(fs.readdirSync(out).filter((name) => name.endsWith('.tmp')), [], 'no temp file left');
    assert.ok(fs.existsSync(path.join(out, `.imprint-job-${id}.json`)), 'the job\'s note stays for coming back');

    const summaryFile = path.join(work, 'wait-summary.json');
    const waited = await cli(['jobs', 'wait', id, '--out-dir', out, '--summary', summaryFile]);
    assert.equal(waited.code, 0, waited.describe());
    assertInvoices(out, Array.from({ length: 60 }, (_, i) => 100 + i));
    for (const [name, earlier] of before) {
      const now = fs.statSync(path.join(out, name));
      assert.deepEqual([now.ino, now.mtimeMs], [earlier.ino, earlier.mtimeMs], `${name} was not written again`);
    }
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.deepEqual({ skipped: summary.skipped, ok: summary.ok, failed: summary.failed }, { skipped: before.size, ok: 60 - before.size, failed: 0 });
  });

  test('jobs cancel: the rows not started are cancelled; jobs wait then ends with them failed as cancelled', async () => {
    const out = path.join(work, 'cancelled');
    const submitted = await cli(['render', 'invoice', '--batch', rowsFile('cancel.jsonl', 200, 279), '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--detach']);
    assert.equal(submitted.code, 0, submitted.describe());
    const id = submitted.stdout.toString().trim();
    const cancelled = await cli(['jobs', 'cancel', id, '--json']);
    assert.equal(cancelled.code, 0, cancelled.describe());
    const job = JSON.parse(cancelled.stdout.toString());
    // A row under way when the cancel came finishes; the job is "cancelled" once it has.
    assert.ok(job.cancelled > 0 && ['running', 'cancelled'].includes(job.status), cancelled.describe());
    const summaryFile = path.join(work, 'cancel-summary.json');
    const waited = await cli(['jobs', 'wait', id, '--out-dir', out, '--summary', summaryFile]);
    assert.equal(waited.code, 1, waited.describe());
    assert.match(waited.stderr, /rows failed/);
    const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    assert.equal(summary.job.status, 'cancelled');
    assert.equal(summary.ok + summary.failed, 80);
    assert.equal(summary.ok, pdfsIn(out).length);
    assert.ok(summary.rows.filter((row: { error?: string }) => /cancelled/.test(row.error ?? '')).length >= job.cancelled, waited.describe());
    const shown = await cli(['jobs', 'show', id]);
    assert.equal(shown.code, 0, shown.describe());
    assert.match(shown.stdout.toString(), new RegExp(`Job ${id}: cancelled`));
  });
});

describe('a restart of the service', () => {
  test('jobs wait rides it out: the job resumes on the restarted service and every PDF arrives', async () => {
    const out = path.join(work, 'restart');
    const submitted = await cli(['render', 'invoice', '--batch', rowsFile('restart.jsonl', 500, 539), '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--detach']);
    assert.equal(submitted.code, 0, submitted.describe());
    const id = submitted.stdout.toString().trim();
    const waiting = cli(['jobs', 'wait', id, '--out-dir', out]);
    const deadline = Date.now() + 120_000;
    while (!(fs.existsSync(out) && pdfsIn(out).length >= 2)) {
      assert.ok(Date.now() < deadline, 'no PDF arrived');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The same port and data folder, as a restart by the operator.
    assert.equal(await serve.stop(), 0, serve.output());
    assert.ok(pdfsIn(out).length < 40, 'the job was not over when the service stopped');
    serve = await startServeProcess({ dataDir: serviceData, args: [...SERVE_ARGS, '--port', String(serve.port)] });
    const waited = await waiting;
    assert.equal(waited.code, 0, waited.describe());
    assertInvoices(out, Array.from({ length: 40 }, (_, i) => 500 + i));
    assert.match(waited.stderr, /Rendered 40 of 40 rows/);
  });
});

describe('--webhook', () => {
  test('the job carries the URL and the service calls it when the job is over', async () => {
    const events: { type: string; data: { id: string } }[] = [];
    let delivered!: () => void;
    const arrived = new Promise<void>((resolve) => (delivered = resolve));
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        events.push(JSON.parse(body));
        response.end();
        delivered();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
      const run = await cli(['render', 'invoice', '--batch', rowsFile('hook.jsonl', 400, 402), '--out-dir', path.join(work, 'hook'), '--webhook', hook, '--summary', path.join(work, 'hook.json')]);
      assert.equal(run.code, 0, run.describe());
      const summary = JSON.parse(fs.readFileSync(path.join(work, 'hook.json'), 'utf8'));
      assert.equal(summary.job.webhook?.url, hook, JSON.stringify(summary.job));
      // The webhook's first attempt follows the job's end; a deadline, not luck, bounds the wait.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([arrived, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no webhook within 60 s:\n${serve.output()}`)), 60_000)))]).finally(() => clearTimeout(timer));
      assert.deepEqual(events.map((event) => [event.type, event.data.id]), [['job.completed', summary.job.id]]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('generate --batch in remote mode', () => {
  test('rows of html go to the service as one job; each PDF holds its row', async () => {
    const rows = path.join(work, 'pages.jsonl');
    fs.writeFileSync(rows, ['alpha', 'bravo', 'charlie'].map((word) => JSON.stringify({ html: `<h1>Page ${word}</h1>` })).join('\n'));
    const out = path.join(work, 'pages');
    const jobsBefore = await requestCount('POST', '/api/jobs');
    const run = await cli(['generate', '--batch', rows, '--out-dir', out]);
    assert.equal(run.code, 0, run.describe());
    assert.equal(await requestCount('POST', '/api/jobs'), jobsBefore + 1);
    assert.deepEqual(pdfsIn(out), ['1.pdf', '2.pdf', '3.pdf']);
    ['alpha', 'bravo', 'charlie'].forEach((word, i) => assert.match(pdfText(path.join(out, `${i + 1}.pdf`)), new RegExp(`Page ${word}`)));
  });
});

describe('embedded mode', () => {
  test('generate --batch renders its rows here, one PDF per row; a row with neither html nor url fails alone', async () => {
    const rows = path.join(work, 'local-pages.jsonl');
    fs.writeFileSync(rows, [JSON.stringify({ html: '<h1>Local delta</h1>' }), JSON.stringify({ title: 'no page' }), JSON.stringify({ html: '<h1>Local echo</h1>' })].join('\n'));
    const out = path.join(work, 'local-pages');
    const run = await runCli(['generate', '--batch', rows, '--out-dir', out, '--name', 'page-{{$row}}.pdf'], { env: { IMPRINT_DATA_DIR: tempDir('imprint-user-') } });
    assert.equal(run.code, 1, run.describe());
    assert.match(run.stderr, /row 2: the row has neither "html" nor "url"/);
    assert.deepEqual(pdfsIn(out), ['page-1.pdf', 'page-3.pdf']);
    assert.match(pdfText(path.join(out, 'page-1.pdf')), /Local delta/);
    assert.match(pdfText(path.join(out, 'page-3.pdf')), /Local echo/);
  });

  test('jobs explain that they need the service', async () => {
    const local = await runCli(['jobs'], { env: { IMPRINT_DATA_DIR: tempDir('imprint-user-') } });
    assert.equal(local.code, 2, local.describe());
    assert.match(local.stderr, /`imprint jobs` needs an Imprint service.*imprint login/s);
    const detach = await runCli(['render', 'invoice', '--batch', path.join(work, 'rows.jsonl'), '--out-dir', path.join(work, 'x'), '--detach'], { env: { IMPRINT_DATA_DIR: tempDir('imprint-user-') } });
    assert.equal(detach.code, 2, detach.describe());
    assert.match(detach.stderr, /--detach submits the batch as a job/);
  });
});
