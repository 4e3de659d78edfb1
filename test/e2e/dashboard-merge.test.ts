/**
 * The dashboard's try-it form takes PDFs to put before and after the render (issue 39,
 * merging), in a real Chromium (puppeteer-core) against a real `imprint serve` (the installed
 * CLI as a child process): a cover picked with the file input is listed by name and size, the
 * render sent with it comes back as one PDF (its pages summed, one outline entry per part:
 * qpdf), the preview shows every page, a file that is no PDF is refused in the page, and
 * removing the part renders the template alone again. Screenshots go to test-output/dashboard/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { ROOT, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { pdfInfo } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const WAIT = { timeout: 90_000 };
const OUTPUT = path.join(ROOT, 'test-output', 'dashboard');

async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(OUTPUT, { recursive: true });
  const file = path.join(OUTPUT, `${name}.png`);
  fs.writeFileSync(file, await page.screenshot({ fullPage: true }));
  assert.ok(fs.statSync(file).size > 5_000, `${file} has content`);
  return file;
}

const outlineTitles = (pdf: Buffer, dir: string): string[] => {
  const file = path.join(dir, `rendered-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  return (JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8', timeout: 30_000 })).outlines as { title: string }[]).map((item) => item.title);
};

describe('the try-it form merges PDFs around the render', { timeout: 300_000 }, () => {
  const operator = cliWithDataDir();
  const dir = tempDir('imprint-dashboard-merge-');
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let key = '';
  let cover = '';

  /** Clicks Render and answers the PDF the page received. */
  const renderInPage = async (): Promise<Buffer> => {
    const answer = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/templates/letter/render'), WAIT);
    await page.click('.try-it > section > button');
    const response = await answer;
    const body = Buffer.from(await response.buffer());
    assert.equal(response.status(), 200, body.toString('utf8', 0, 2000));
    return body;
  };

  before(async () => {
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    key = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"dash","private":true}\n');
    const template = path.join(project, 'Letter.tsx');
    fs.writeFileSync(template, "export default function Letter(props: { who: string }) { return <h1>Letter for {props.who}</h1>; }\nLetter.documentId = 'letter';\n");
    const env = { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key, IMPRINT_DATA_DIR: tempDir() };
    const published = await runCli(['publish', template], { env });
    assert.equal(published.code, 0, published.describe());
    // A two-page cover with its own title: the first outline entry.
    cover = path.join(dir, 'cover.pdf');
    const made = await runCli(['generate', '--html', '-', '-o', cover], { env, stdin: '<title>Cover letter</title><h1>Dear customer</h1><h1 style="break-before: page">Page two of the cover</h1>' });
    assert.equal(made.code, 0, made.describe());
    fs.writeFileSync(path.join(dir, 'notes.pdf'), 'just some text, not a PDF');

    const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
    ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(serve.url);
    await page.waitForSelector('#api-key', WAIT);
    await page.type('#api-key', key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('table[data-testid="templates"]', WAIT);
    await page.click('table[data-testid="templates"] a');
    await page.waitForSelector('[data-testid="try-it-merge"]', WAIT);
  });

  after(async () => {
    await browser?.close();
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test('a cover picked before the document: listed, sent, merged with its own bookmark, every page previewed', async () => {
    await (await page.waitForSelector('#root_who', WAIT))!.type('Grace');
    const input = await page.waitForSelector('[data-testid="merge-prepend"] input[type="file"]', WAIT);
    await input!.uploadFile(cover);
    await page.waitForSelector('[data-testid="merge-prepend"] li', WAIT);
    assert.match(await page.$eval('[data-testid="merge-prepend"] li', (item) => item.textContent ?? ''), /^cover\.pdf \(\d+(\.\d)? KiB\)/);

    const pdf = await renderInPage();
    assert.equal(pdfInfo(pdf).pages, 3);
    assert.deepEqual(outlineTitles(pdf, dir), ['Cover letter', 'Letter']);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="pdf-view"] canvas.pdf-page').length === 3, WAIT);
    await screenshot(page, '10-try-it-merged');
  });

  test('a file that is no PDF is refused in the page, naming it; removing the cover renders the template alone', async () => {
    const input = await page.$('[data-testid="merge-append"] input[type="file"]');
    await input!.uploadFile(path.join(dir, 'notes.pdf'));
    const refused = await page.waitForSelector('[data-testid="merge-append"] .error[role="alert"]', WAIT);
    assert.match((await refused!.evaluate((element) => element.textContent)) ?? '', /notes\.pdf is not a PDF/);
    assert.equal(await page.$('[data-testid="merge-append"] li'), null, 'nothing listed');
    await screenshot(page, '11-try-it-not-a-pdf');

    await page.click('[data-testid="merge-prepend"] li button');
    await page.waitForSelector('[data-testid="merge-prepend"] li', { hidden: true, ...WAIT });
    const pdf = await renderInPage();
    assert.equal(pdfInfo(pdf).pages, 1);
  });
});
