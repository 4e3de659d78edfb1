/**
 * The service's dashboard in a real Chromium (puppeteer-core) against a real `imprint serve`
 * (the built CLI as a child process): sign in with a key, the team's template ids listed and
 * another team's absent, a rollback seen in what the API renders, a key made in the page used
 * and revoked over HTTP, sign-out ending the session on the server; and its boundaries: the
 * cookie's flags, the key out of the page's reach, a CSP without inline script on every
 * answer, a cookie that authorizes no /api route, an attacker page on another port that
 * changes nothing, stored text escaped, no serious or critical axe-core violations. Each page
 * is screenshotted into test-output/dashboard/ for a person to look at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { ROOT, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const WAIT = { timeout: 90_000 };
const OUTPUT = path.join(ROOT, 'test-output', 'dashboard');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A project whose template says which version it is, with a typed prop (so it has a schema and a form). */
function writeTemplate(dir: string, name: string, id: string, label: string): string {
  const file = path.join(dir, `${name}.tsx`);
  fs.writeFileSync(file, `export default function ${name}(props: { who: string }) { return <h1>${name} ${label} for {props.who}</h1>; }\n${name}.documentId = '${id}';\n`);
  return file;
}

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(OUTPUT, { recursive: true });
  const file = path.join(OUTPUT, `${name}.png`);
  fs.writeFileSync(file, await page.screenshot({ fullPage: true }));
  assert.ok(fs.statSync(file).size > 5_000, `${file} has content`);
}

/** axe-core run in the page: the serious and critical violations, by rule and target. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the dashboard in Chromium', () => {
  const operator = cliWithDataDir();
  const project = tempDir('imprint-dashboard-project-');
  fs.writeFileSync(path.join(project, 'package.json'), '{"name":"dash","private":true}\n');
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let acmeKey = '';
  let rivalKey = '';
  let acmeTestKey = '';
  let attacker: http.Server | undefined;
  const dialogs: string[] = [];

  const api = (pathname: string, init: RequestInit & { key?: string } = {}) =>
    fetch(new URL(pathname, serve.url), { ...init, headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const sessionCookie = async () => (await page.cookies(`${serve.url}/dashboard/`)).find((cookie) => cookie.name === 'imprint_session');
  const asUser = (key: string) => ({ IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key, IMPRINT_DATA_DIR: tempDir() });

  before(async () => {
    for (const team of ['acme', 'rival']) assert.equal((await operator.run(['team', 'create', team])).code, 0);
    acmeKey = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    acmeTestKey = (await operator.run(['key', 'create', '--team', 'acme', '--test'])).stdout.toString().trim();
    rivalKey = (await operator.run(['key', 'create', '--team', 'rival'])).stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
    for (const label of ['one', 'two']) {
      const published = await runCli(['publish', writeTemplate(project, 'Stamp', 'stamp', label)], { env: asUser(acmeKey) });
      assert.equal(published.code, 0, published.describe());
    }
    const other = await runCli(['publish', writeTemplate(project, 'Secret', 'rival-only', 'x')], { env: asUser(rivalKey) });
    assert.equal(other.code, 0, other.describe());

    const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
    ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 860 });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test('/ leads to the dashboard; every answer has a CSP without inline script; the page has no inline script', async () => {
    const root = await api('/', { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/dashboard');
    const html = await api('/dashboard');
    const csp = html.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    const body = await html.text();
    assert.doesNotMatch(body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script>');
    assert.match(body, /\/dashboard\/assets\/app-[A-Z0-9]+\.js/, 'fingerprinted script');
    for (const pathname of ['/api/templates', '/healthz', '/dashboard/api/session']) {
      const answer = await api(pathname);
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'none'/, pathname);
    }
    const pdf = await api('/api/generate', { method: 'POST', key: acmeKey, body: JSON.stringify({ html: '<p>csp</p>' }) });
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(pdf.headers.get('content-security-policy'), "script-src 'none'");
    const asset = await api(new URL(body.match(/\/dashboard\/assets\/app-[A-Z0-9]+\.js/)![0], serve.url).pathname);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  });

  test('a wrong key gets a clear message; the right one signs in and lists the team\'s ids, not another team\'s', async () => {
    await page.goto(serve.url);
    await page.waitForSelector('#api-key', WAIT);
    assert.deepEqual(await axeViolations(page), [], 'sign-in page');
    await page.type('#api-key', 'imp_not-a-real-key');
    await page.click('button[type="submit"]');
    const message = await page.waitForSelector('.error[role="alert"]', WAIT);
    assert.match((await message!.evaluate((e) => e.textContent)) ?? '', /not valid here.*imp_/);
    await screenshot(page, '01-sign-in-wrong-key');

    // By keyboard alone: the field has the focus, Enter signs in.
    await page.click('#api-key', { count: 3 });
    await page.keyboard.type(acmeKey);
    await page.keyboard.press('Enter');
    await page.waitForSelector('table[data-testid="templates"]', WAIT);
    const ids = await page.$$eval('table[data-testid="templates"] tbody tr td:first-child', (cells) => cells.map((cell) => cell.textContent));
    assert.deepEqual(ids, ['stamp']);
    const row = await page.$eval('table[data-testid="templates"] tbody tr', (tr) => tr.textContent ?? '');
    assert.match(row, /v2/);
    assert.match(row, /\d+(\.\d)? (B|KiB)/, 'its size');
    assert.doesNotMatch(await page.content(), /rival-only/);
    assert.equal(await page.$eval('[data-testid="team-name"]', (e) => e.textContent), 'Team acme');
    assert.deepEqual(await axeViolations(page), [], 'templates page');
    await screenshot(page, '02-templates');

    // Filterable.
    await page.type('input[type="search"]', 'nothing-like-it');
    await page.waitForSelector('table[data-testid="templates"]', { hidden: true, ...WAIT });
    await page.click('input[type="search"]', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.waitForSelector('table[data-testid="templates"]', WAIT);
  });

  test('the session cookie is HttpOnly and SameSite=Strict, and the key is nowhere the page can read', async () => {
    const cookie = await sessionCookie();
    assert.ok(cookie, 'a session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.secure, false, 'plain http here: Secure only over https');
    assert.notEqual(cookie.value, acmeKey);
    // Without --trust-proxy a claimed https is not believed (whoever sends the header is not a proxy of the operator's).
    const claimed = await api('/dashboard/api/session', { method: 'POST', headers: { origin: new URL(serve.url).origin, 'x-forwarded-proto': 'https' }, body: JSON.stringify({ key: acmeKey }) });
    assert.equal(claimed.status, 200);
    assert.doesNotMatch(claimed.headers.get('set-cookie') ?? '', /Secure/);
    assert.match(claimed.headers.get('set-cookie') ?? '', /^imprint_session=[^;]+; Path=\/dashboard; HttpOnly; SameSite=Strict$/);
    const visible = await page.evaluate(() => ({
      cookie: document.cookie,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      html: document.documentElement.outerHTML,
    }));
    assert.equal(visible.cookie, '');
    for (const text of Object.values(visible)) assert.ok(!text.includes(acmeKey), 'the key is not in the page');
  });

  test('the cookie alone authorizes no /api route', async () => {
    const cookie = `imprint_session=${(await sessionCookie())!.value}`;
    const render = await api('/api/documents/stamp', { method: 'POST', headers: { cookie }, body: JSON.stringify({ props: { who: 'x' } }) });
    assert.equal(render.status, 401);
    assert.match(render.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal((await api('/api/templates', { headers: { cookie } })).status, 401);
    // The session sees its own team only: another team's template is no template.
    assert.equal((await api('/dashboard/api/templates/rival-only', { headers: { cookie } })).status, 404);
    assert.equal((await api('/dashboard/api/templates/stamp', { headers: { cookie } })).status, 200);
    assert.equal((await api('/api/me', { key: acmeKey })).status, 200, 'the bearer API works as before');
  });

  test('a template: its versions, its schema; rolled back in the page, the API renders the old version', async () => {
    await page.click('table[data-testid="templates"] a');
    await page.waitForSelector('table[data-testid="versions"]', WAIT);
    const versions = await page.$$eval('table[data-testid="versions"] tbody tr', (rows) => rows.map((row) => row.textContent ?? ''));
    assert.equal(versions.length, 2);
    assert.match(versions[0], /^v2latest/);
    assert.match(versions[0], /key_[0-9a-f]{12}/, 'the key id that published it');
    assert.match(versions[0], /[0-9a-f]{12}/, 'its hash');
    assert.match(await page.$eval('[data-testid="schema"]', (e) => e.textContent ?? ''), /"who"/);
    assert.deepEqual(await axeViolations(page), [], 'template page');
    await screenshot(page, '03-template');

    await page.click('button[data-rollback="1"]');
    await page.waitForFunction(() => document.querySelector('.note[role="status"]')?.textContent?.includes('as version 3'), WAIT);
    assert.match(dialogs.at(-1) ?? '', /Publish version 1 of stamp again/);
    await page.waitForFunction(() => document.querySelectorAll('table[data-testid="versions"] tbody tr').length === 3, WAIT);
    assert.match(await page.$eval('table[data-testid="versions"] tbody tr', (tr) => tr.textContent ?? ''), /v3latestrollback of v1/);

    const rendered = await api('/api/documents/stamp', { method: 'POST', key: acmeKey, body: JSON.stringify({ props: { who: 'Ada' } }) });
    assert.equal(rendered.status, 200);
    assert.match(pdfText(Buffer.from(await rendered.arrayBuffer())), /Stamp one for Ada/);
  });

  test('try it: the form from the schema renders the PDF inline', async () => {
    const field = await page.waitForSelector('#root_who', WAIT);
    await field!.type('Grace');
    await page.click('.try-it button:not([role="tab"])');
    await page.waitForSelector('[data-testid="pdf-view"] canvas.pdf-page', WAIT);
    await screenshot(page, '04-template-try-it');
  });

  test('keys: one made in the page is shown once and works over HTTP; revoked, it gets 401', async () => {
    await page.click('a[href="/dashboard/keys"]');
    await page.waitForSelector('table[data-testid="keys"]', WAIT);
    const before = await page.$$eval('table[data-testid="keys"] tbody tr', (rows) => rows.length);
    await page.click('.actions button:first-child');
    const shown = await page.waitForSelector('[data-testid="shown-once"]', WAIT);
    const key = await shown!.evaluate((input) => (input as HTMLInputElement).value);
    assert.match(key, /^imp_[A-Za-z0-9_-]{43}$/);
    await page.waitForFunction((count) => document.querySelectorAll('table[data-testid="keys"] tbody tr').length === count, WAIT, before + 1);
    assert.deepEqual(await axeViolations(page), [], 'keys page');
    await screenshot(page, '05-keys-created');

    const listed = await api('/api/templates', { key });
    assert.equal(listed.status, 200);
    assert.deepEqual(((await listed.json()) as { templates: { id: string }[] }).templates.map((t) => t.id), ['stamp']);
    // The key's last use shows.
    await page.click('.shown-once button.secondary');
    await page.reload();
    await page.waitForSelector('table[data-testid="keys"]', WAIT);
    const rowText = async (id: string) => page.$$eval('table[data-testid="keys"] tbody tr', (rows, wanted) => rows.find((row) => row.querySelector('code')?.textContent === wanted)?.textContent ?? '', id);
    const made = (await page.$$eval('table[data-testid="keys"] tbody tr code', (codes) => codes.map((code) => code.textContent ?? ''))).at(-1)!;
    assert.doesNotMatch(await rowText(made), /never$/, 'used once: its last use is shown');

    await page.click(`button[aria-label="Revoke ${made}"]`);
    await page.waitForFunction((id) => !document.querySelector(`button[aria-label="Revoke ${id}"]`), WAIT, made);
    assert.equal((await api('/api/templates', { key })).status, 401);
  });

  test('usage: this month against the limit and a chart of the last 30 days', async () => {
    await page.click('a[href="/dashboard/usage"]');
    await page.waitForSelector('[data-testid="usage-chart"]', WAIT);
    const month = await page.$eval('[data-testid="usage-month"]', (e) => e.textContent ?? '');
    // Three renders so far: the first test's generate, the API's render and the try-it form's.
    assert.match(month, /^3 of 1000 documents used in \d{4}-\d{2}/);
    assert.equal(await page.$$eval('[data-testid="usage-chart"] rect.bar', (bars) => bars.length), 30);
    assert.match((await page.$eval('[data-testid="usage-chart"]', (svg) => svg.getAttribute('aria-label'))) ?? '', /3 in all/);
    assert.deepEqual(await axeViolations(page), [], 'usage page');
    await screenshot(page, '06-usage');
  });

  test('jobs: a job submitted over the API is listed with its counts, and shown with its failed row and its error', async () => {
    // The second row's props break the template's schema: that row fails, the first is delivered.
    const submitted = await api('/api/jobs', { method: 'POST', key: acmeKey, body: JSON.stringify({ template: 'stamp', rows: [{ who: 'A' }, { who: 5 }] }) });
    assert.equal(submitted.status, 202, await submitted.clone().text());
    const { id } = (await submitted.json()) as { id: string };
    // Finished, as the API says: then the page must say the same.
    const deadline = Date.now() + 120_000;
    while (!['completed', 'failed'].includes(((await (await api(`/api/jobs/${id}`, { key: acmeKey })).json()) as { status: string }).status)) {
      assert.ok(Date.now() < deadline, 'the job finishes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.click('a[href="/dashboard/jobs"]');
    await page.waitForSelector('table[data-testid="jobs"]', WAIT);
    assert.match(await page.$eval('table[data-testid="jobs"] tbody', (e) => e.textContent ?? ''), new RegExp(id));
    await page.goto(`${serve.url}/dashboard/jobs/${id}`);
    await page.waitForSelector('main .status', WAIT);
    assert.equal(await page.$eval('main .status', (e) => e.textContent), 'failed');
    assert.match(await page.$eval('main', (e) => e.textContent ?? ''), /1 done, 1 failed, 0 cancelled of 2/);
    const failedRows = await page.$$eval('table[data-testid="failed-rows"] tbody tr', (rows) => rows.map((row) => row.textContent ?? ''));
    assert.equal(failedRows.length, 1);
    assert.match(failedRows[0], /^2INVALID_INPUT.*who: expected string, got 5/);
    assert.ok(await page.$('a.button[href$="/archive"]'), 'the archive of the delivered row');
    assert.deepEqual(await axeViolations(page), [], 'job page');
    await screenshot(page, '07-job');
    // A test key's job: marked as such in the list and on its page.
    const testJob = await api('/api/jobs', { method: 'POST', key: acmeTestKey, body: JSON.stringify({ template: 'stamp', rows: [{ who: 'T' }] }) });
    assert.equal(testJob.status, 202, await testJob.clone().text());
    const testId = ((await testJob.json()) as { id: string }).id;
    while (((await (await api(`/api/jobs/${testId}`, { key: acmeKey })).json()) as { status: string }).status !== 'completed') {
      assert.ok(Date.now() < deadline + 120_000, 'the test job finishes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.goto(`${serve.url}/dashboard/jobs/${testId}`);
    await page.waitForSelector('main .status', WAIT);
    assert.match(await page.$eval('main', (e) => e.textContent ?? ''), /Submitted with a test key: every row's PDF carries a TEST stamp/);
    await page.goto(`${serve.url}/dashboard/jobs`);
    await page.waitForSelector('table[data-testid="jobs"]', WAIT);
    const listed = await page.$$eval('table[data-testid="jobs"] tbody tr', (rows) => rows.map((row) => row.textContent ?? ''));
    assert.deepEqual(listed.map((row) => /test/.test(row)), [true, false], 'the test job (newest) has the badge, the live one not');
    assert.deepEqual(await axeViolations(page), [], 'jobs page');
    await screenshot(page, '08-jobs');
  });

  test("usage after the job: its delivered row counts in the month and in today's bar, its failed row in neither", async () => {
    // The chart's count is written as the row is recorded, just after the job shows finished: wait for it.
    const deadline = Date.now() + 30_000;
    const chartTotal = () => page.evaluate(async () => ((await (await fetch('/dashboard/api/usage')).json()) as { days: { count: number }[] }).days.reduce((sum, day) => sum + day.count, 0));
    while ((await chartTotal()) < 4) {
      assert.ok(Date.now() < deadline, 'the chart counts the job row');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.click('a[href="/dashboard/usage"]');
    await page.waitForSelector('[data-testid="usage-chart"]', WAIT);
    assert.match(await page.$eval('[data-testid="usage-month"]', (e) => e.textContent ?? ''), /^4 of 1000 documents used/);
    assert.match((await page.$eval('[data-testid="usage-chart"]', (svg) => svg.getAttribute('aria-label'))) ?? '', /4 in all, at most 4 in a day/);
    await screenshot(page, '08b-usage-with-job');
  });

  test('settings: the webhook secret is rotated and shown once', async () => {
    await page.click('a[href="/dashboard/settings"]');
    await page.click('main > button');
    const shown = await page.waitForSelector('[data-testid="shown-once"]', WAIT);
    assert.match(await shown!.evaluate((input) => (input as HTMLInputElement).value), /^whsec_/);
    assert.deepEqual(await axeViolations(page), [], 'settings page');
    await screenshot(page, '09-settings');
  });

  test('an attacker page on another port that posts to the dashboard changes nothing', async () => {
    const keysBefore = ((await (await api('/dashboard/api/keys', { headers: { cookie: `imprint_session=${(await sessionCookie())!.value}` } })).json()) as { keys: unknown[] }).keys.length;
    const target = serve.url;
    const evil = `<!doctype html><html><body>
<form id="f" method="POST" action="${target}/dashboard/api/keys" enctype="text/plain"><input name='{"test":false,"x":"' value='"}'></form>
<script>
  Promise.allSettled([
    fetch('${target}/dashboard/api/keys', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    fetch('${target}/dashboard/api/webhook-secret', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' }),
  ]).then(() => { document.title = 'fetched'; document.getElementById('f').submit(); });
</script></body></html>`;
    attacker = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(evil));
    await new Promise<void>((resolve) => attacker!.listen(0, '127.0.0.1', resolve));
    const evilPage = await browser.newPage();
    try {
      // "localhost" is another site than 127.0.0.1 as well as another port.
      // Done when the form's navigation to the dashboard has been answered (after both fetches).
      const posted = evilPage.waitForResponse((response) => response.url() === `${target}/dashboard/api/keys` && response.request().resourceType() === 'document', WAIT);
      await evilPage.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
      assert.notEqual((await posted).status(), 201);
    } finally {
      await evilPage.close();
    }
    const cookie = `imprint_session=${(await sessionCookie())!.value}`;
    const keysAfter = ((await (await api('/dashboard/api/keys', { headers: { cookie } })).json()) as { keys: unknown[] }).keys.length;
    assert.equal(keysAfter, keysBefore, 'no key was made');

    // The same with every header a script could not forge, one missing at a time: refused.
    const csrf = ((await (await api('/dashboard/api/session', { headers: { cookie } })).json()) as { csrf: string }).csrf;
    const own = new URL(serve.url).origin;
    const tries: [string, Record<string, string>][] = [
      ['another origin', { cookie, origin: 'http://localhost:1', 'x-csrf-token': csrf }],
      ['no origin', { cookie, 'x-csrf-token': csrf }],
      ['no CSRF token', { cookie, origin: own }],
      ['a wrong CSRF token', { cookie, origin: own, 'x-csrf-token': 'x'.repeat(43) }],
    ];
    for (const [what, headers] of tries) {
      const answer = await api('/dashboard/api/keys', { method: 'POST', headers, body: '{}' });
      assert.equal(answer.status, 403, what);
      assert.equal(((await answer.json()) as { code: string }).code, 'FORBIDDEN');
    }
    const allowed = await api('/dashboard/api/webhook-secret', { method: 'POST', headers: { cookie, origin: own, 'x-csrf-token': csrf }, body: '{}' });
    assert.equal(allowed.status, 200, 'with all of them, the same request works');
    assert.equal(((await (await api('/dashboard/api/keys', { headers: { cookie } })).json()) as { keys: unknown[] }).keys.length, keysBefore);
  });

  test('stored text is shown as text: a login code\'s machine name with markup', async () => {
    const asked = await api('/dashboard/login-codes', { method: 'POST', body: JSON.stringify({ machine: '<img src=x onerror="document.title=\'owned\'">ana@laptop' }) });
    assert.equal(asked.status, 201);
    const { verificationUrl } = (await asked.json()) as { verificationUrl: string };
    await page.goto(verificationUrl);
    const machine = await page.waitForSelector('[data-testid="login-machine"]', WAIT);
    assert.equal(await machine!.evaluate((e) => e.textContent), '<img src=x onerror="document.title=\'owned\'">ana@laptop');
    assert.equal(await page.$('main img'), null);
    assert.notEqual(await page.title(), 'owned');
    assert.deepEqual(await axeViolations(page), [], 'login approval page');
    await screenshot(page, '10-login-approval');
  });

  test('sign out ends the session on the server: the old cookie is refused', async () => {
    const cookie = `imprint_session=${(await sessionCookie())!.value}`;
    assert.equal((await api('/dashboard/api/session', { headers: { cookie } })).status, 200);
    await page.goto(`${serve.url}/dashboard`);
    await page.waitForSelector('header.top', WAIT);
    const signOut = await page.$$('header.top button');
    await signOut.at(-1)!.click();
    await page.waitForSelector('#api-key', WAIT);
    assert.equal((await api('/dashboard/api/session', { headers: { cookie } })).status, 401);
    assert.equal((await api('/dashboard/api/templates', { headers: { cookie } })).status, 401);
  });
});
