/**
 * Test keys (api.md Part F) against a real `imprint serve`: made by the operator command
 * (`imprint key create --test`) or in the dashboard, their documents carry a TEST stamp on
 * every page (read back with pdftotext), answer with a header saying so, and leave the team's
 * usage unchanged; a live key's document of the same template is unstamped and counted. Jobs
 * alike: a test key's job has every row's PDF stamped and takes nothing from the limit or the
 * dashboard's chart; a live key's job is unstamped and counted in both.
 *
 * Signed in to the dashboard (in Chromium) with a test key, the session stays in test mode
 * (issue 41, case 3): no live key can be made there (the page offers none, the service answers
 * 403), a login code it approves gives a test key, its try-it render is stamped and not
 * counted, and its job views show test jobs only.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { ROOT, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { pdfInfo, withFile } from '../helpers/pdf.js';

/**
 * The text in content order (-raw), white space dropped: poppler writes a diagonal word letter
 * by letter on lines of their own, which a PDF reader's search still finds as one word.
 */
const rawText = (pdf: Buffer) =>
  withFile(pdf, (file) => execFileSync('pdftotext', ['-raw', file, '-']).toString())
    .split('\f')
    .map((page) => page.replace(/\s+/g, ''))
    .join('\f');
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

describe('test keys', () => {
  const operator = cliWithDataDir();
  let serve: ServeProcess;
  let liveKey = '';
  let testKey = '';

  const post = (pathname: string, key: string, body: unknown) =>
    fetch(new URL(pathname, serve.url), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const used = async () => ((await (await fetch(new URL('/api/me', serve.url), { headers: { authorization: `Bearer ${liveKey}` } })).json()) as { team: { usedThisMonth: number } }).team.usedThisMonth;

  before(async () => {
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    liveKey = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    const made = await operator.run(['key', 'create', '--team', 'acme', '--test']);
    assert.equal(made.code, 0, made.describe());
    assert.match(made.stderr, /test key/);
    testKey = made.stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
    const project = tempDir('imprint-testkeys-');
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"p","private":true}\n');
    // Two pages: the stamp must be on each.
    fs.writeFileSync(
      path.join(project, 'Letter.tsx'),
      "export default function Letter(props: { to: string }) { return <><p>Dear {props.to}</p><p style={{ breakBefore: 'page' }}>Page two</p></>; }\nLetter.documentId = 'letter';\n",
    );
    const published = await runCli(['publish', path.join(project, 'Letter.tsx')], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: liveKey, IMPRINT_DATA_DIR: tempDir() } });
    assert.equal(published.code, 0, published.describe());
  });

  let session: { cookie: string; csrf: string } | undefined;
  async function dashboardSession() {
    if (session) return session;
    const signIn = await fetch(new URL('/dashboard/api/session', serve.url), { method: 'POST', headers: { origin: new URL(serve.url).origin, 'content-type': 'application/json' }, body: JSON.stringify({ key: liveKey }) });
    assert.equal(signIn.status, 200);
    session = { cookie: signIn.headers.get('set-cookie')!.split(';')[0], ...((await signIn.json()) as { csrf: string }) };
    return session;
  }
  /** Documents in the dashboard's chart of the last 30 days. */
  async function chartTotal() {
    const answer = await fetch(new URL('/dashboard/api/usage', serve.url), { headers: { cookie: (await dashboardSession()).cookie } });
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { days: { count: number }[] }).days.reduce((sum, day) => sum + day.count, 0);
  }
  type JobStatus = { status: string; done: number; failed: number; test?: boolean; rows: { row: number; url?: string; code?: string }[] };
  /** Polls a job's status until it finished; answers the last status answer and its body. */
  async function finished(statusUrl: string, key: string) {
    const read = async () => {
      const status = await fetch(statusUrl, { headers: { authorization: `Bearer ${key}` } });
      return { status, body: (await status.json()) as JobStatus };
    };
    return waitFor(read, ({ body }) => FINAL.includes(body.status), `job ${statusUrl}`);
  }

  let browser: Browser | undefined;
  after(async () => {
    await browser?.close();
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test("a test key's document is stamped TEST on every page, says so, and is not counted", async () => {
    const before = await used();
    const answer = await post('/api/documents/letter', testKey, { props: { to: 'Ada' } });
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(answer.headers.get('imprint-test-key'), 'stamped; not counted');
    const pdf = Buffer.from(await answer.arrayBuffer());
    assert.equal(pdfInfo(pdf).pages, 2);
    const pages = rawText(pdf).split('\f').filter((page) => page.trim());
    assert.equal(pages.length, 2);
    for (const page of pages) assert.match(page, /TEST/, 'stamped on every page');
    assert.match(pages[0], /DearAda/, 'the document is still there');
    // Its first page as an image, for a person to look at.
    const output = path.join(ROOT, 'test-output', 'dashboard');
    fs.mkdirSync(output, { recursive: true });
    withFile(pdf, (file) => execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', file, path.join(output, '13-test-key-stamp')]));
    assert.equal(await used(), before, 'not counted');

    // A2 and the json form alike: the stored PDF is the stamped one.
    const generated = await post('/api/generate', testKey, { html: '<p>Raw HTML</p>', format: 'json' });
    assert.equal(generated.status, 200);
    const { url } = (await generated.json()) as { url: string };
    const downloaded = Buffer.from(await (await fetch(url)).arrayBuffer());
    assert.match(rawText(downloaded), /RawHTML[\s\S]*TEST/);
    assert.equal(await used(), before, 'not counted either');
  });

  test("a live key's document of the same template is unstamped and counted", async () => {
    const before = await used();
    const answer = await post('/api/documents/letter', liveKey, { props: { to: 'Ada' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('imprint-test-key'), null);
    const text = rawText(Buffer.from(await answer.arrayBuffer()));
    assert.match(text, /DearAda/);
    assert.doesNotMatch(text, /TEST/);
    assert.equal(await used(), before + 1);
  });

  test('a test key made in the dashboard is a test key too', async () => {
    const { cookie, csrf } = await dashboardSession();
    const made = await fetch(new URL('/dashboard/api/keys', serve.url), { method: 'POST', headers: { origin: new URL(serve.url).origin, cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ test: true }) });
    assert.equal(made.status, 201);
    const { key } = (await made.json()) as { key: string };
    const before = await used();
    const answer = await post('/api/documents/letter', key, { props: { to: 'Bo' } });
    assert.equal(answer.status, 200);
    assert.match(rawText(Buffer.from(await answer.arrayBuffer())), /TEST/);
    assert.equal(await used(), before);
  });

  test("a test key's job: accepted, every row's PDF stamped, nothing counted (usage and the chart), a failed row gives nothing back", async () => {
    const usedBefore = await used();
    assert.ok(usedBefore > 0, 'the team has counted documents, so a unit wrongly given back would show');
    const chartBefore = await chartTotal();
    // Row 3 has no `file` for its name: it fails, and a test job has no unit to give back for it.
    const submitted = await post('/api/jobs', testKey, { template: 'letter', name: '{{file}}.pdf', rows: [{ to: 'Row1', file: 'one' }, { to: 'Row2', file: 'two' }, { to: 'Row3' }] });
    assert.equal(submitted.status, 202, await submitted.clone().text());
    assert.equal(submitted.headers.get('imprint-test-key'), 'stamped; not counted');
    const { statusUrl } = (await submitted.json()) as { statusUrl: string };
    const job = await finished(statusUrl, testKey);
    assert.equal(job.status.headers.get('imprint-test-key'), 'stamped; not counted', 'the status answer says so too');
    assert.equal(job.body.test, true);
    assert.deepEqual([job.body.done, job.body.failed], [2, 1]);
    for (const row of job.body.rows.filter((r) => r.url)) {
      const pdf = Buffer.from(await (await fetch(row.url!)).arrayBuffer());
      assert.equal(pdfInfo(pdf).pages, 2);
      const pages = rawText(pdf).split('\f').filter((page) => page.trim());
      for (const page of pages) assert.match(page, /TEST/, `row ${row.row} stamped on every page`);
      assert.match(pages[0], new RegExp(`DearRow${row.row}`));
    }
    assert.match(job.body.rows[2].code ?? '', /INVALID_INPUT/);
    assert.equal(await used(), usedBefore, 'the job took no units and gave none back');

    // Then a live key's job: unstamped and counted, in usage and in the chart (which a test job's rows, done before it, never reached).
    const live = await post('/api/jobs', liveKey, { template: 'letter', rows: [{ to: 'Live1' }, { to: 'Live2' }] });
    assert.equal(live.status, 202);
    assert.equal(live.headers.get('imprint-test-key'), null);
    const liveJob = await finished(((await live.json()) as { statusUrl: string }).statusUrl, liveKey);
    assert.equal(liveJob.body.status, 'completed');
    assert.equal(liveJob.body.test, undefined);
    for (const row of liveJob.body.rows) {
      const text = rawText(Buffer.from(await (await fetch(row.url!)).arrayBuffer()));
      assert.match(text, new RegExp(`DearLive${row.row}`));
      assert.doesNotMatch(text, /TEST/);
    }
    assert.equal(await used(), usedBefore + 2);
    // The chart's count of a row is written as the row is recorded: wait for the live rows, then it must be exactly them.
    assert.equal(await waitFor(chartTotal, (total) => total >= chartBefore + 2, 'the chart to count the live job rows', 30_000), chartBefore + 2);
  });

  describe("a test key's dashboard session stays in test mode (issue 41)", () => {
    const WAIT = { timeout: 90_000 };
    const OUTPUT = path.join(ROOT, 'test-output', 'dashboard');
    let page: Page;
    /** A JSON call from the page itself: its origin, its cookie, and the session's CSRF token. */
    const fromPage = (method: string, pathname: string, body?: unknown) =>
      page.evaluate(
        async (m, p, b) => {
          const { csrf } = (await (await fetch('/dashboard/api/session')).json()) as { csrf: string };
          const answer = await fetch(p, { method: m, headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: b === undefined ? undefined : JSON.stringify(b) });
          return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
        },
        method,
        pathname,
        body,
      );
    /** Whether a key is a test key, as the API shows it: its render carries the stamp's header. */
    const isTestKey = async (key: string) => (await post('/api/documents/letter', key, { props: { to: 'Key' } })).headers.get('imprint-test-key') === 'stamped; not counted';

    before(async () => {
      const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
      ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
      page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 860 });
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${serve.url}/dashboard`);
      await page.waitForSelector('#api-key', WAIT);
      await page.type('#api-key', testKey);
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="team-name"]', WAIT);
    });

    test('keys: the page offers test keys only; one made there is a test key; a live one is refused with 403 saying why', async () => {
      // The service first: what the page's own script may send.
      const live = await fromPage('POST', '/dashboard/api/keys', { test: false });
      assert.equal(live.status, 403);
      assert.equal(live.body.code, 'FORBIDDEN');
      assert.match(String(live.body.error), /test key.*cannot create a live key/);
      assert.match(await page.$eval('[data-testid="team-name"]', (e) => e.textContent ?? ''), /test mode/, 'the header says the session is in test mode');
      await page.click('a[href="/dashboard/keys"]');
      await page.waitForSelector('table[data-testid="keys"]', WAIT);
      const buttons = await page.$$eval('.actions button', (all) => all.map((button) => button.textContent));
      assert.deepEqual(buttons, ['Create test key']);
      await page.click('.actions button');
      const shown = await page.waitForSelector('[data-testid="shown-once"]', WAIT);
      const made = await shown!.evaluate((input) => (input as HTMLInputElement).value);
      assert.ok(await isTestKey(made), 'the key made in a test session is a test key');
      fs.mkdirSync(OUTPUT, { recursive: true });
      fs.writeFileSync(path.join(OUTPUT, '14-test-session-keys.png'), await page.screenshot({ fullPage: true }));
      // The team's live key cannot be revoked from here either, nor the webhook secret (it signs live jobs' events) rotated or read.
      const liveKeyId = ((await fromPage('GET', '/dashboard/api/keys')).body.keys as { id: string; test: boolean }[]).find((key) => !key.test)!.id;
      assert.equal((await fromPage('POST', `/dashboard/api/keys/${liveKeyId}/revoke`, {})).status, 403);
      assert.equal((await fromPage('POST', '/dashboard/api/webhook-secret', {})).status, 403);
      assert.equal((await fetch(new URL('/api/me', serve.url), { headers: { authorization: `Bearer ${liveKey}` } })).status, 200, 'the live key still works');
    });

    test('a login code approved in the test session gives the command line a test key', async () => {
      // The CLI's side of `imprint login --web`, over its HTTP: ask for a code, poll for the key.
      const asked = await fetch(new URL('/dashboard/login-codes', serve.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ machine: 'contractor@laptop' }) });
      assert.equal(asked.status, 201);
      const { code, pollToken, verificationUrl } = (await asked.json()) as { code: string; pollToken: string; verificationUrl: string };
      await page.goto(verificationUrl);
      await page.waitForSelector('[data-testid="login-code"]', WAIT);
      assert.equal(await page.$eval('[data-testid="login-code"]', (e) => e.textContent), code);
      fs.writeFileSync(path.join(OUTPUT, '15-test-session-login-approve.png'), await page.screenshot());
      const says = await page.$eval('.approve', (e) => e.textContent ?? '');
      await page.click('.approve button');
      await page.waitForSelector('[data-testid="login-approved"]', WAIT);
      const polled = await fetch(new URL('/dashboard/login-codes/poll', serve.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pollToken }) });
      const claim = (await polled.json()) as { status: string; key: string; test?: boolean };
      assert.equal(claim.status, 'approved');
      assert.equal(claim.test, true);
      assert.ok(await isTestKey(claim.key), "the CLI's key is a test key");
      assert.match(says, /gets a test key/, 'the page said the CLI gets a test key');
    });

    test('try it: the PDF is stamped TEST and the usage is unchanged', async () => {
      const before = await used();
      await page.goto(`${serve.url}/dashboard/templates/letter`);
      const field = await page.waitForSelector('#root_to', WAIT);
      await field!.type('Grace');
      const rendered = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/templates/letter/render'), WAIT);
      await page.click('.try-it button:not([role="tab"])');
      const answer = await rendered;
      assert.equal(answer.status(), 200);
      const text = rawText(Buffer.from(await answer.buffer()));
      assert.match(text, /DearGrace/);
      assert.match(text, /TEST/);
      await page.waitForSelector('[data-testid="pdf-view"] canvas.pdf-page', WAIT);
      fs.writeFileSync(path.join(OUTPUT, '16-test-session-try-it.png'), await page.screenshot({ fullPage: true }));
      assert.equal(await used(), before, 'not counted');
      assert.match(await page.$eval('.try-it .hint', (e) => e.textContent ?? ''), /stamped TEST and not counted/, 'the form says so');
    });

    test('jobs: the test session lists and opens test jobs only; a live job is unknown to it', async () => {
      const all = (await (await fetch(new URL('/api/jobs', serve.url), { headers: { authorization: `Bearer ${liveKey}` } })).json()) as { jobs: { id: string; test?: boolean }[] };
      const liveJob = all.jobs.find((job) => !job.test)!.id;
      const testJob = all.jobs.find((job) => job.test)!.id;
      const listed = await fromPage('GET', '/dashboard/api/jobs');
      assert.deepEqual((listed.body.jobs as { id: string }[]).map((job) => job.id), all.jobs.filter((job) => job.test).map((job) => job.id));
      assert.equal((await fromPage('GET', `/dashboard/api/jobs/${liveJob}`)).status, 404);
      assert.equal((await fromPage('GET', `/dashboard/api/jobs/${testJob}`)).status, 200);
      await page.goto(`${serve.url}/dashboard/jobs`);
      await page.waitForSelector('table[data-testid="jobs"]', WAIT);
      const shown = await page.$eval('table[data-testid="jobs"] tbody', (e) => e.textContent ?? '');
      assert.match(shown, new RegExp(testJob));
      assert.doesNotMatch(shown, new RegExp(liveJob));
    });
  });
});
