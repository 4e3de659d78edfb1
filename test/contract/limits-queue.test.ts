/**
 * Issue 5, render slots and queue length: `imprint serve --concurrency N --queue-length M`
 * (or IMPRINT_CONCURRENCY / IMPRINT_QUEUE_LENGTH) as a child process, the way an operator
 * runs it, with a real Chromium. Pages waiting on an image the test holds back fill the slots
 * and the queue; exactly the overflow is answered 429 while they still wait (so at once, not
 * behind them), with Retry-After and an error object; once the images are let go the rest are
 * valid PDFs of their own content; then the service answers normally.
 * Needs the built CLI (npm run build).
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { startHeldImages, type HeldImages } from '../helpers/held-images.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { eventually } from './helpers/faults.js';
import { pdfText } from '../helpers/pdf.js';

type Serve = ServeProcess;

let held: HeldImages;
before(async () => (held = await startHeldImages()));
after(() => held?.close());

/**
 * Starts `imprint serve` and waits until it says where it listens and how many renders it
 * takes. Loopback is opened for the held images; the deadline is far above how long a test
 * holds them.
 */
const startServe = (dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Serve> =>
  startServeProcess({ dataDir, args: ['--allow-host', '127.0.0.1', '--render-timeout', '300s', ...args], env });

interface Answer {
  label: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

/** A page that prints `label` once its held image is let go. */
const slowPage = (label: string) => `<h1>${label}</h1>${held.img(label)}`;

async function generate(serve: Serve, key: string, label: string, html = slowPage(label)): Promise<Answer> {
  const started = performance.now();
  const response = await request(`${serve.url}/api/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ html }),
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { label, status: response.statusCode, headers: response.headers, body, ms: performance.now() - started };
}

const describeAnswers = (answers: Answer[]) =>
  answers.map((a) => `${a.label}: ${a.status} in ${Math.round(a.ms)} ms ${a.status === 200 ? `${a.body.length} bytes` : a.body.toString()}`).join('\n');

/**
 * Fires `count` held renders at once. While their images are held no render can finish, so
 * every answer that comes meanwhile is a refusal: once `refusals` have come and the slots'
 * pages have asked for their images, the state is read (refused so far, images asked for),
 * then the images are let go and every answer collected.
 */
async function flood(serve: Serve, key: string, prefix: string, count: number, expect: { slots: number; refusals: number }) {
  held.hold();
  const imagesBefore = held.count();
  const early: Answer[] = [];
  const pending = Array.from({ length: count }, (_, i) => generate(serve, key, `${prefix} ${i + 1}`).then((answer) => (early.push(answer), answer)));
  const settled = await eventually(() => early.length >= expect.refusals && held.count() - imagesBefore >= expect.slots, 60_000);
  const whileHeld = { answers: [...early], images: held.count() - imagesBefore };
  held.release();
  const answers = await Promise.all(pending);
  assert.ok(settled, `while the images were held: ${whileHeld.answers.length} answers, ${whileHeld.images} images asked for\n${describeAnswers(answers)}`);
  return { answers, whileHeld, ok: answers.filter((a) => a.status === 200), refused: answers.filter((a) => a.status === 429) };
}

function assertRendered(answer: Answer) {
  assert.equal(answer.status, 200);
  assert.match(String(answer.headers['content-type']), /^application\/pdf/);
  assert.equal(answer.body.subarray(0, 5).toString(), '%PDF-');
  // Its own content, nobody else's.
  assert.equal(pdfText(answer.body).trim(), answer.label);
}

function assertBusy(answer: Answer) {
  assert.equal(answer.status, 429);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const retryAfter = String(answer.headers['retry-after']);
  assert.match(retryAfter, /^[1-9]\d*$/, 'Retry-After: whole seconds, at least 1');
  const body = JSON.parse(answer.body.toString());
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId']);
  assert.equal(body.code, 'BUSY');
  assert.match(body.error, /render slots? (is|are) busy .* already waiting\. Try again in \d+ s\./);
}

async function usedThisMonth(serve: Serve, key: string): Promise<number> {
  const response = await request(`${serve.url}/api/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.statusCode, 200);
  return ((await response.body.json()) as { team: { usedThisMonth: number } }).team.usedThisMonth;
}

async function teamKey(dataDir: string): Promise<string> {
  const operator = cliWithDataDir(dataDir);
  const team = await operator.run(['team', 'create', 'ops', '--limit', '100']);
  assert.equal(team.code, 0, team.describe());
  const created = await operator.run(['key', 'create', '--team', 'ops']);
  assert.equal(created.code, 0, created.describe());
  return created.stdout.toString().trim();
}

describe('--concurrency 1 --queue-length 1', () => {
  const dataDir = tempDir('imprint-queue-');
  let serve: Serve;
  let key: string;

  before(async () => {
    key = await teamKey(dataDir);
    serve = await startServe(dataDir, ['--concurrency', '1', '--queue-length', '1']);
  });

  after(async () => {
    if (serve) assert.equal(await serve.stop(), 0, `serve stops cleanly:\n${serve.output()}`);
  });

  test('the service says what it runs with', () => {
    assert.deepEqual(serve.pool, { concurrency: 1, maxQueue: 1 });
  });

  test('4 slow renders at once: one renders, one waits, exactly the 2 beyond get 429 + Retry-After; then it answers normally', async (t) => {
    // Chromium started, so the flood meets rendering, not a browser launch.
    assertRendered(await generate(serve, key, 'Warm up', '<h1>Warm up</h1>'));
    const before_ = await usedThisMonth(serve, key);

    const { answers, whileHeld, ok, refused } = await flood(serve, key, 'Slow', 4, { slots: 1, refusals: 2 });
    t.diagnostic(describeAnswers(answers).replace(/\n/g, ' | '));
    assert.equal(ok.length, 2, describeAnswers(answers));
    assert.equal(refused.length, 2, describeAnswers(answers));
    ok.forEach(assertRendered);
    refused.forEach(assertBusy);
    // Refused at once: both 429s came while the slot's page was still waiting for its image.
    assert.deepEqual(whileHeld.answers.map((a) => a.status), [429, 429], describeAnswers(answers));
    // The queued one waited for the slot: only one page had started when the 429s came.
    assert.equal(whileHeld.images, 1, describeAnswers(answers));
    assert.equal(await usedThisMonth(serve, key), before_ + 2, 'the refused renders counted nothing');

    // Nothing stuck: the next ones render (one after the other, both fitting the slot and queue).
    const [first, second] = await Promise.all([generate(serve, key, 'After 1'), generate(serve, key, 'After 2')]);
    assertRendered(first);
    assertRendered(second);
    assert.equal(await usedThisMonth(serve, key), before_ + 4);
  });
});

describe('IMPRINT_CONCURRENCY and IMPRINT_QUEUE_LENGTH', () => {
  test('from the environment, queue length 0: every render past the one slot is refused; a flag wins over its variable', async () => {
    const dataDir = tempDir('imprint-queue-env-');
    const key = await teamKey(dataDir);
    const serve = await startServe(dataDir, [], { IMPRINT_CONCURRENCY: '1', IMPRINT_QUEUE_LENGTH: '0' });
    try {
      assert.deepEqual(serve.pool, { concurrency: 1, maxQueue: 0 });
      assertRendered(await generate(serve, key, 'Warm up', '<h1>Warm up</h1>'));
      const { answers, whileHeld, ok, refused } = await flood(serve, key, 'Env', 3, { slots: 1, refusals: 2 });
      assert.equal(ok.length, 1, describeAnswers(answers));
      assert.equal(refused.length, 2, describeAnswers(answers));
      assert.deepEqual(whileHeld.answers.map((a) => a.status), [429, 429], describeAnswers(answers));
      ok.forEach(assertRendered);
      refused.forEach(assertBusy);
      assertRendered(await generate(serve, key, 'Env after'));
    } finally {
      assert.equal(await serve.stop(), 0, serve.output());
    }

    const flagged = await startServe(dataDir, ['--concurrency', '3'], { IMPRINT_CONCURRENCY: '1', IMPRINT_QUEUE_LENGTH: '0' });
    assert.deepEqual(flagged.pool, { concurrency: 3, maxQueue: 0 });
    assert.equal(await flagged.stop(), 0, flagged.output());
  });

  test('the defaults: one slot per core, 50 waiting per slot', async () => {
    const serve = await startServe(tempDir('imprint-queue-default-'), []);
    const cores = os.availableParallelism();
    assert.deepEqual(serve.pool, { concurrency: cores, maxQueue: 50 * cores });
    assert.equal(await serve.stop(), 0, serve.output());
  });

  test('a bad value stops the service before it starts: usage error, exit 2, naming the flag or variable', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--concurrency', '0'], {}, /option '--concurrency <n>' argument '0' is invalid\. Invalid --concurrency "0": use a whole number of at least 1\./],
      [['--concurrency', '2.5'], {}, /Invalid --concurrency "2\.5"/],
      [['--queue-length', '-1'], {}, /Invalid --queue-length "-1": use a whole number of at least 0/],
      [[], { IMPRINT_CONCURRENCY: 'lots' }, /value 'lots' from env 'IMPRINT_CONCURRENCY' is invalid/],
      [[], { IMPRINT_QUEUE_LENGTH: '1e3' }, /value '1e3' from env 'IMPRINT_QUEUE_LENGTH' is invalid/],
      [[], { IMPRINT_MAX_PAGES: '0' }, /value '0' from env 'IMPRINT_MAX_PAGES' is invalid/],
      [[], { IMPRINT_RENDER_TIMEOUT: 'soon' }, /from env 'IMPRINT_RENDER_TIMEOUT' is invalid/],
    ];
    for (const [args, env, message] of cases) {
      const result = await runCli(['serve', '--port', '0', ...args], { env: { IMPRINT_DATA_DIR: tempDir(), ...env } });
      assert.equal(result.code, 2, result.describe());
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /listening on/);
    }
  });

  test('--help names every limit flag with its variable', async () => {
    const help = await runCli(['serve', '--help']);
    assert.equal(help.code, 0, help.describe());
    const text = help.stdout.toString().replace(/\s+/g, ' ');
    for (const [flag, env] of [
      ['--concurrency <n>', 'IMPRINT_CONCURRENCY'],
      ['--queue-length <n>', 'IMPRINT_QUEUE_LENGTH'],
      ['--render-timeout <duration>', 'IMPRINT_RENDER_TIMEOUT'],
      ['--max-props-depth <n>', 'IMPRINT_MAX_PROPS_DEPTH'],
      ['--max-pages <n>', 'IMPRINT_MAX_PAGES'],
      ['--max-pdf-size <size>', 'IMPRINT_MAX_PDF_SIZE'],
      ['--max-body-size <size>', 'IMPRINT_MAX_BODY_SIZE'],
      ['--max-upload-size <size>', 'IMPRINT_MAX_UPLOAD_SIZE'],
    ]) {
      assert.ok(text.includes(flag), flag);
      assert.match(text, new RegExp(`${flag.replace(/[<>]/g, '.')} (?:(?! --\\w).)*env: ${env}\\)`), `${flag} documents ${env}`);
    }
    assert.match(text, /429 with Retry-After/);
    assert.match(text, /default: the number of cores/);
    assert.match(text, /default: 50 per render slot/);
  });
});
