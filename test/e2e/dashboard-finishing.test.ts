/**
 * The dashboard's try-it form takes the finishing steps (issue 39: stamp, flatten, encrypt,
 * sign), in a real Chromium (puppeteer-core) against a real `imprint serve` (the installed CLI
 * as a child process), each judged in the PDF the page received by the Debian oracles: the
 * stamp's text on exactly the pages asked (pdftotext), the form gone and its value in the text
 * (pdfinfo, pdftotext), AES-256 with the permissions asked (qpdf --show-encryption), the
 * preview drawing the protected file with its user password, a PAdES signature by the team's
 * key that pdfsig trusts, and a team without a key told in the form how to get one.
 * Screenshots go to test-output/dashboard/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { INPUTS, ROOT, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { makeSigningPki, pdfsig, type SigningPki } from '../helpers/signing-pki.js';

const WAIT = { timeout: 90_000 };
const OUTPUT = path.join(ROOT, 'test-output', 'dashboard');
const FIXTURE = path.join(INPUTS, 'test', 'fixtures', 'dashboard', 'Notice.tsx');
const SECRET = 'dashboard-finishing-secret-0123456789-abcdefghij';
const USER = 'open-sesame';
const OWNER = 'owner-only-9';

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(OUTPUT, { recursive: true });
  const file = path.join(OUTPUT, `${name}.png`);
  fs.writeFileSync(file, await page.screenshot({ fullPage: true }));
  assert.ok(fs.statSync(file).size > 5_000, `${file} has content`);
}

const poppler = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8', timeout: 30_000 });

describe('the try-it form stamps, flattens, protects and signs', { timeout: 300_000 }, () => {
  const operator = cliWithDataDir();
  const dir = tempDir('imprint-dashboard-finishing-');
  let pki: SigningPki;
  let serve: ServeProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let page: Page;
  const keys: Record<string, string> = {};

  /** A signed-in page of `team` on its template's try-it form, in its own browser context (its own cookie). */
  async function tryItAs(team: string): Promise<Page> {
    const context = await browser.createBrowserContext();
    contexts.push(context);
    const opened = await context.newPage();
    await opened.setViewport({ width: 1280, height: 1000 });
    await opened.goto(serve.url);
    await opened.waitForSelector('#api-key', WAIT);
    await opened.type('#api-key', keys[team]!);
    await opened.keyboard.press('Enter');
    await opened.waitForSelector('table[data-testid="templates"] a', WAIT);
    await opened.click('table[data-testid="templates"] a');
    await (await opened.waitForSelector('#root_who', WAIT))!.type('Grace');
    await opened.waitForSelector('[data-testid="try-it-finishing"]', WAIT);
    return opened;
  }

  /** Clicks Render and answers the status and the bytes the page received. */
  async function renderIn(on: Page): Promise<{ status: number; body: Buffer; file: string; sent: Record<string, unknown> }> {
    const answer = on.waitForResponse((response) => response.url().endsWith('/dashboard/api/templates/notice/render'), WAIT);
    await on.click('.try-it > section > button');
    const response = await answer;
    const body = Buffer.from(await response.buffer());
    const file = path.join(dir, `rendered-${Date.now()}.pdf`);
    fs.writeFileSync(file, body);
    return { status: response.status(), body, file, sent: JSON.parse(response.request().postData() ?? '{}') };
  }

  /** Sets a checkbox of the form to `checked`, by its name. */
  async function check(on: Page, name: string, checked: boolean): Promise<void> {
    const box = (await on.$(`[data-testid="try-it-finishing"] input[name="${name}"]`))!;
    if ((await box.evaluate((input) => (input as HTMLInputElement).checked)) !== checked) await box.click();
  }

  async function fill(on: Page, name: string, text: string): Promise<void> {
    const input = (await on.$(`[data-testid="try-it-finishing"] input[name="${name}"]`))!;
    await input.click({ count: 3 });
    await input.press('Backspace');
    if (text) await input.type(text);
  }

  before(async () => {
    pki = makeSigningPki(path.join(dir, 'pki'));
    for (const team of ['acme', 'bare']) {
      assert.equal((await operator.run(['team', 'create', team])).code, 0);
      keys[team] = (await operator.run(['key', 'create', '--team', team])).stdout.toString().trim();
    }
    const stored = await operator.run(['team', 'signing-key', 'acme', '--p12', pki.signerP12], { env: { IMPRINT_SECRET: SECRET, IMPRINT_SIGN_PASSWORD: pki.password } });
    assert.equal(stored.code, 0, stored.describe());
    serve = await startServeProcess({ dataDir: operator.dataDir, env: { IMPRINT_SECRET: SECRET } });
    for (const team of ['acme', 'bare']) {
      const published = await runCli(['publish', FIXTURE], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: keys[team]!, IMPRINT_DATA_DIR: tempDir() } });
      assert.equal(published.code, 0, published.describe());
    }
    const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
    ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
    page = await tryItAs('acme');
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test('a stamp on the first page, the form flattened, a user and an owner password with permissions: each in the PDF, the preview opens it', async () => {
    await fill(page, 'stamp-text', 'DRAFT');
    await fill(page, 'stamp-pages', 'first');
    await page.select('[data-testid="try-it-finishing"] select[name="stamp-position"]', 'top');
    await fill(page, 'stamp-opacity', '0.3');
    await check(page, 'flatten', true);
    await check(page, 'encrypt', true);
    await page.waitForSelector('[data-testid="finishing-encrypt"]', WAIT);
    await fill(page, 'user-password', USER);
    await fill(page, 'owner-password', OWNER);
    await page.select('[data-testid="try-it-finishing"] select[name="print"]', 'low');
    await check(page, 'copy', false);

    assert.equal(await page.$eval('input[name="stamp-opacity"]', (input) => (input as HTMLInputElement).value), '0.3');
    const { status, body, file, sent } = await renderIn(page);
    assert.equal(status, 200, body.toString('utf8', 0, 2000));
    assert.deepEqual(sent.stamp, { text: 'DRAFT', pages: 'first', position: 'top', opacity: 0.3 });
    assert.equal(sent.flatten, true);
    const shown = poppler('qpdf', ['--show-encryption', `--password=${OWNER}`, file]);
    assert.match(shown, /^R = 6$/m);
    for (const line of ['print low resolution: allowed', 'print high resolution: not allowed', 'extract for any purpose: not allowed', 'modify other: not allowed']) {
      assert.match(shown, new RegExp(`^${line}$`, 'm'), shown);
    }
    const info = poppler('pdfinfo', ['-upw', USER, file]);
    assert.match(info, /^Pages:\s+2$/m);
    assert.match(info, /^Form:\s+none$/m, 'flattened: no form left');
    const text = (number: number) => poppler('pdftotext', ['-upw', USER, '-f', String(number), '-l', String(number), file, '-']);
    assert.match(text(1), /DRAFT/);
    assert.match(text(1), /REF-4711/, "the field's value is page content");
    assert.doesNotMatch(text(2), /DRAFT/, 'the stamp is on the first page only');

    // pdf.js opens the protected file with the user password the form sent: both pages drawn, no error.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="pdf-view"] canvas.pdf-page').length === 2, WAIT);
    assert.equal(await page.$('.pdf-error'), null);
    await screenshot(page, '20-try-it-stamped-protected');
  });

  test("signed with the team's key: pdfsig trusts the signature over the whole file", async () => {
    await check(page, 'encrypt', false);
    await check(page, 'flatten', false);
    await fill(page, 'stamp-text', '');
    await check(page, 'sign', true);
    const { status, body, file } = await renderIn(page);
    assert.equal(status, 200, body.toString('utf8', 0, 2000));
    assert.match(poppler('pdfinfo', [file]), /^Form:\s+AcroForm$/m, 'not flattened: the field stays fillable');
    const report = pdfsig(file, pki);
    assert.match(report, /Signature is Valid\./, report);
    assert.match(report, /Total document signed/, report);
    assert.match(report, /Certificate is Trusted\./, report);
    await screenshot(page, '21-try-it-signed');
  });

  test('a team without a signing key is told in the form how to get one', async () => {
    const bare = await tryItAs('bare');
    await check(bare, 'sign', true);
    const { status } = await renderIn(bare);
    assert.equal(status, 400);
    const alert = await bare.waitForSelector('.try-it .error[role="alert"]', WAIT);
    assert.match((await alert!.evaluate((element) => element.textContent)) ?? '', /no signing key.*imprint team signing-key/);
    await screenshot(bare, '22-try-it-no-signing-key');
  });
});
