/**
 * `imprint render --batch` in remote mode against a real `imprint serve` with a small render
 * pool (--concurrency 1 --queue-length 1). The batch is one job (api.md Part D), so it never
 * meets the queue's 429s: a batch far larger than the queue still writes every row; a
 * document too large fails its row only; a batch past the team's generation limit is refused
 * before anything renders; a single render that meets a full queue says the service is busy
 * and when to retry. Both CLIs are child processes (the built dist/), the PDFs are read back
 * by their text.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, INPUTS, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { startHeldImages, type HeldImages } from '../helpers/held-images.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { pdfText } from '../helpers/pdf.js';

const card = path.join(INPUTS, 'test', 'fixtures', 'pool', 'Card.tsx');
const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
const pdfsIn = (dir: string) => fs.readdirSync(dir).sort();
const MAX_PAGES = 2;

type Serve = ServeProcess;

const startServe = (dataDir: string, args: string[]): Promise<Serve> => startServeProcess({ dataDir, args });

const serviceData = tempDir('imprint-busy-serve-');
const operator = cliWithDataDir(serviceData);
const work = tempDir('imprint-busy-work-');
let serve: Serve;

let heldImages: HeldImages;

async function teamKey(team: string, limit: number): Promise<string> {
  const created = await operator.run(['team', 'create', team, '--limit', String(limit)]);
  assert.equal(created.code, 0, created.describe());
  const key = await operator.run(['key', 'create', '--team', team]);
  assert.equal(key.code, 0, key.describe());
  return key.stdout.toString().trim();
}

/** A user's CLI in remote mode with `key`: its own config and data folders. */
function remoteCli(key: string) {
  const env = { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key, IMPRINT_CONFIG_DIR: tempDir('imprint-config-'), IMPRINT_DATA_DIR: tempDir('imprint-user-') };
  return (args: string[], options: CliOptions = {}) => runCli(args, { timeoutMs: 180_000, ...options, env: { ...env, ...options.env } });
}

let acme: ReturnType<typeof remoteCli>;
let acmeKey: string;

before(async () => {
  acmeKey = await teamKey('acme', 1000);
  heldImages = await startHeldImages();
  // Loopback is opened for the held images only; the deadline is far above how long the test
  // holds them, so that a slow machine sees the same answers.
  serve = await startServe(serviceData, ['--concurrency', '1', '--queue-length', '1', '--max-pages', String(MAX_PAGES), '--allow-host', '127.0.0.1', '--render-timeout', '300s']);
  assert.deepEqual(serve.pool, { concurrency: 1, maxQueue: 1 }, serve.output());
  acme = remoteCli(acmeKey);
  const published = await acme(['publish', card, '--id', 'card']);
  assert.equal(published.code, 0, published.describe());
});

after(async () => {
  await heldImages?.close();
  if (serve) assert.equal(await serve.stop(), 0, `serve stops cleanly on SIGTERM:\n${serve.output()}`);
});

interface Summary {
  total: number;
  ok: number;
  failed: number;
  stoppedBy?: string;
  durationMs: number;
  rows: { row: number; status: string; file?: string; attempts: number; busy?: number; error?: string }[];
}
const readSummary = (file: string): Summary => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Writes `rows` as JSON Lines and renders them with `cli` as a batch of card: the run, its out-dir and its summary. */
async function runCardBatch(cli: ReturnType<typeof remoteCli>, label: string, rows: object[], name: string, concurrency: number) {
  const rowsFile = path.join(work, `${label}.jsonl`);
  fs.writeFileSync(rowsFile, jsonl(rows));
  const out = path.join(work, `out-${label}`);
  const summaryFile = path.join(work, `${label}-summary.json`);
  const result = await cli(['render', 'card', '--batch', rowsFile, '--out-dir', out, '--name', name, '--concurrency', String(concurrency), '--summary', summaryFile]);
  return { result, out, summary: () => readSummary(summaryFile) };
}

describe('remote batch against a service with 1 render slot and a queue of 1', () => {
  test('20 rows, far more than the queue holds: one job, no request refused, every row written with its own content', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ title: `R-${String(i + 1).padStart(2, '0')}`, customer: { name: `Customer ${i + 1}`, city: `City ${i + 1}` } }));
    const { result, out, summary: readBusySummary } = await runCardBatch(acme, 'busy', rows, '{{title}}.pdf', 6);
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stderr, /--concurrency is not used with a job/);

    assert.deepEqual(pdfsIn(out), rows.map((row) => `${row.title}.pdf`), 'one file per row, no temporary files left');
    for (const [i, row] of rows.entries()) {
      const text = pdfText(path.join(out, `${row.title}.pdf`));
      assert.match(text, new RegExp(`Card ${row.title}\\b`));
      assert.match(text, new RegExp(`Customer Customer ${i + 1}\\b`));
      assert.match(text, new RegExp(`City City ${i + 1}\\b`));
    }

    const summary = readBusySummary();
    assert.deepEqual([summary.total, summary.ok, summary.failed, summary.stoppedBy], [20, 20, 0, undefined]);
    assert.ok(summary.rows.every((row) => row.busy === undefined), 'no row was refused busy');
    assert.match(result.stderr, /Rendered 20 of 20 rows .*\(job [0-9a-f-]{36}, completed\)/);
  });

  test('a document past the page limit fails that row only; the others are written', async () => {
    const rows = [{ n: 1, title: 'Small 1' }, { n: 2, title: 'Small 2' }, { n: 3, title: 'word '.repeat(3000) }, { n: 4, title: 'Small 4' }, { n: 5, title: 'Small 5' }];
    const { result, out, summary: readLargeSummary } = await runCardBatch(acme, 'large', rows, 'doc-{{n}}.pdf', 2);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, new RegExp(`row 3: The document has \\d+ pages, more than the ${MAX_PAGES} pages per document`));
    assert.match(result.stderr, /1 of 5 rows failed \(row 3\)/);
    assert.doesNotMatch(result.stderr, /stopped/);
    assert.deepEqual(pdfsIn(out), ['doc-1.pdf', 'doc-2.pdf', 'doc-4.pdf', 'doc-5.pdf']);
    for (const n of [1, 2, 4, 5]) assert.match(pdfText(path.join(out, `doc-${n}.pdf`)), new RegExp(`Card Small ${n}\\b`));
    const summary = readLargeSummary();
    assert.equal(summary.stoppedBy, undefined);
    const third = summary.rows.find((row) => row.row === 3)!;
    assert.equal(third.status, 'failed');
  });

  test('a batch past the team\'s generation limit is refused before anything renders (a 422 for the whole job)', async () => {
    const tight = remoteCli(await teamKey('tight', 3));
    assert.equal((await tight(['publish', card, '--id', 'card'])).code, 0);
    const rows = Array.from({ length: 6 }, (_, i) => ({ title: `L-${i + 1}` }));
    const { result, out } = await runCardBatch(tight, 'limit', rows, '{{title}}.pdf', 1);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /Limit reached: This job has 6 rows, but team "tight" has 3 of its 3 generations left/);
    assert.deepEqual(pdfsIn(out), [], 'nothing rendered');
    const usage = await tight(['whoami', '--json']);
    assert.equal(usage.code, 0, usage.describe());
    assert.equal(JSON.parse(usage.stdout.toString()).team.usedThisMonth, 0, 'nothing was counted');
  });

  test('a single render that meets a full queue: exit 1, "busy; retry after N s"; the service then renders normally', async () => {
    // Renders that wait on an image the test holds back: they keep the slot and the queue
    // full for as long as the test needs, whatever the machine's speed.
    const slow = (label: string) =>
      request(`${serve.url}/api/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acmeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ html: `<h1>${label}</h1>${heldImages.img(label)}` }),
      }).then(async (response) => ({ label, status: response.statusCode, body: Buffer.from(await response.body.arrayBuffer()) }));
    // The slot: taken once its page asks for the image.
    const first = slow('Slow 1');
    await heldImages.requested(1);
    // The queue's one place: of two more, one waits in it and the other is refused at once,
    // whichever arrives second. That refusal is the moment the queue is known to be full.
    const [second, third] = [slow('Slow 2'), slow('Slow 3')];
    const refusedFirst = await Promise.race([second, third].map((reply) => reply.then((answer) => (answer.status === 429 ? answer : new Promise<never>(() => {})))));
    const queued = refusedFirst.label === 'Slow 2' ? third : second;

    const refused = await acme(['generate', '--html', '-'], { stdin: '<p>one more</p>' });
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, new RegExp(`The Imprint API at ${serve.url.replace(/[.]/g, '\\.')} is busy; retry after [1-9]\\d* s\\. The service said: All 1 render slots are busy`));
    assert.equal(refused.stdout.length, 0);

    heldImages.release();
    for (const filled of await Promise.all([first, queued])) {
      assert.equal(filled.status, 200, filled.body.toString().slice(0, 300));
      assert.match(pdfText(filled.body), new RegExp(filled.label));
    }
    const again = await acme(['generate', '--html', '-'], { stdin: '<p>one more</p>' });
    assert.equal(again.code, 0, again.describe());
    assert.match(pdfText(again.stdout), /one more/);
  });
});
