/**
 * `imprint dev`'s plain pages in a real browser (the studio at / has dev-studio.test.ts): the CLI
 * runs the preview server as a child process, and a headless Chromium (driven by puppeteer-core)
 * opens its pages. The page shows the rendered PDF; a save to the template, or to a file it
 * imports, shows up without reloading the page; build and render errors appear in the page with
 * their source location; without its props file a template is rendered with its PreviewProps.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { startDev, type DevProcess } from '../helpers/dev-process.js';
import { pdfText } from '../helpers/pdf.js';

/** Generous: a rebuild on a busy CI machine. The tests wait for states, they never time them. */
const WAIT = { timeout: 90_000 };

/** The preview's state as the page shows it, read from the page's own DOM. */
const shown = (page: Page) =>
  page.$eval('#preview', (main) => ({
    version: Number((main as HTMLElement).dataset.version),
    pdfVersion: Number((main as HTMLElement).dataset.pdfVersion ?? 0),
    ok: (main as HTMLElement).dataset.ok === 'true',
    error: document.getElementById('error')!.textContent ?? '',
    pdfSrc: (document.getElementById('pdf') as HTMLIFrameElement).getAttribute('src') ?? '',
  }));

async function pdfShown(page: Page, url: string): Promise<string> {
  const { pdfSrc } = await shown(page);
  const response = await fetch(new URL(pdfSrc, url));
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  return pdfText(Buffer.from(await response.arrayBuffer()));
}

describe('imprint dev', () => {
  const project = path.join(tempDir(), 'preview');
  const template = path.join(project, 'templates', 'Invoice.tsx');
  const terms = path.join(project, 'templates', 'terms.ts');
  const edit = (file: string, from: string, to: string) => {
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes(from), `${from} in ${file}`);
    fs.writeFileSync(file, text.replace(from, to));
  };
  let dev: DevProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    const cli = cliWithDataDir();
    const init = await cli.run(['init', project]);
    assert.equal(init.code, 0, init.describe());
    // A module the template imports: saving it must re-render the template too.
    fs.writeFileSync(terms, "export const TERMS = 'Payment within 30 days.';\n");
    edit(template, "import './invoice.css';", "import './invoice.css';\nimport { TERMS } from './terms';");
    edit(template, '<Spacer size="8mm" />', '<Spacer size="8mm" />\n      <p>{TERMS}</p>');

    dev = await startDev(project, cli.dataDir);
    const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, puppeteerCacheDir: path.join(os.homedir(), '.cache', 'puppeteer') });
    ({ browser } = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 }));
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    if (dev && dev.child.exitCode === null) {
      dev.child.kill('SIGKILL');
    }
  });

  test('the plain list links each template; its page shows the rendered PDF with the props file', async () => {
    await page.goto(new URL('/list', dev.url).href);
    const link = await page.waitForSelector('a[href="/t/Invoice"]');
    assert.match(await link!.evaluate((a) => a.textContent ?? ''), /Invoice\.tsx/);
    await Promise.all([page.waitForNavigation(), link!.click()]);

    await page.waitForFunction(() => document.getElementById('preview')?.dataset.ok === 'true', WAIT);
    const state = await shown(page);
    assert.match(state.pdfSrc, /^\/t\/Invoice\/pdf\?v=\d+$/);
    // The browser opens the PDF in the page (its own viewer), not a link to it; the viewer's
    // frame may still be navigating when the preview says it is ready.
    const pdfHref = new URL(state.pdfSrc, dev.url).href;
    await page.waitForFrame((frame) => frame.url() === pdfHref, WAIT).catch(() => assert.fail(`no frame shows ${pdfHref}: ${page.frames().map((f) => f.url()).join(', ')}`));
    const text = await pdfShown(page, dev.url);
    assert.match(text, /INV-0042/, 'Invoice.props.json, not the PreviewProps');
    assert.match(text, /Payment within 30 days\./);
    assert.match(await page.$eval('#status', (s) => s.textContent ?? ''), /rendered with Invoice\.props\.json/);
  });

  test('the download button serves the PDF as a file', async () => {
    const href = await page.$eval('#download', (a) => (a as HTMLAnchorElement).href);
    assert.equal(await page.$eval('#download', (a) => a.getAttribute('aria-disabled')), 'false');
    const response = await fetch(href);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="Invoice\.pdf"/);
    assert.match(pdfText(Buffer.from(await response.arrayBuffer())), /INV-0042/);
  });

  test('the event stream opens with every template\'s state: a page that read its state before a build finished catches up', async () => {
    type State = { name: string; ok: boolean; pdfVersion: number };
    const controller = new AbortController();
    // A stream that never sends what is awaited fails here in 30 s, not at the file's timeout.
    const deadline = setTimeout(() => controller.abort(new Error('the awaited event did not come within 30 s')), 30_000);
    /** The stream's events in order, as { event, data }; `event` is 'message' for a change. */
    async function* events() {
      const response = await fetch(new URL('/events', dev.url), { signal: controller.signal });
      assert.equal(response.headers.get('content-type'), 'text/event-stream');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      for (;;) {
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined) yield { event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: JSON.parse(data) };
        }
        const { value, done } = await reader.read();
        assert.ok(!done, 'the stream ended');
        buffered += value;
      }
    }
    try {
      // The first event is the list; then Invoice's changes until it has rendered (it may still be building).
      const first = events();
      const opening = (await first.next()).value!;
      assert.equal(opening.event, 'list');
      let invoice = (opening.data as State[]).find((state) => state.name === 'Invoice');
      assert.ok(invoice, JSON.stringify(opening.data));
      while (!invoice.ok) {
        const { event, data } = (await first.next()).value!;
        if (event === 'message' && (data as State).name === 'Invoice') invoice = data as State;
      }
      // A page that subscribes now hears of that render at once, from the list, without waiting for a change that will not come.
      const late = (await events().next()).value!;
      assert.equal(late.event, 'list');
      const now = (late.data as State[]).find((state) => state.name === 'Invoice');
      assert.deepEqual({ ok: now?.ok, pdfVersion: now?.pdfVersion }, { ok: true, pdfVersion: invoice.pdfVersion });
    } finally {
      clearTimeout(deadline);
      controller.abort();
    }
  });

  test('a save to the template shows up without reloading the page', async () => {
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const before = await shown(page);
    edit(template, 'Billed to', 'Invoiced to');
    await page.waitForFunction((v) => Number(document.getElementById('preview')?.dataset.pdfVersion) > v, WAIT, before.pdfVersion);
    assert.equal(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), true, 'no reload');
    assert.match(await pdfShown(page, dev.url), /Invoiced to/);
  });

  test('a save to a module the template imports re-renders it too', async () => {
    const before = await shown(page);
    fs.writeFileSync(terms, "export const TERMS = 'Payment within 14 days, please.';\n");
    await page.waitForFunction((v) => Number(document.getElementById('preview')?.dataset.pdfVersion) > v, WAIT, before.pdfVersion);
    assert.match(await pdfShown(page, dev.url), /Payment within 14 days, please\./);
  });

  test('a build error is shown in the page with its file:line:column; the last PDF stays', async () => {
    const before = await shown(page);
    edit(template, '<p>{TERMS}</p>', '<p>{TERMS}</p');
    await page.waitForFunction(() => document.getElementById('preview')?.dataset.ok === 'false', WAIT);
    const state = await shown(page);
    assert.match(state.error, /The template failed to build: .*Invoice\.tsx:\d+:\d+: /);
    assert.equal(state.pdfVersion, before.pdfVersion);
  });

  test('a render error is shown with the line of the template that threw', async () => {
    const before = await shown(page);
    // One write: the fix of the build error and the throw, so no good render comes in between.
    const text = fs.readFileSync(template, 'utf8');
    fs.writeFileSync(template, text.replace('<p>{TERMS}</p', '<p>{TERMS}</p>').replace('const money =', "if (props.number) throw new Error('Deliberate failure');\n  const money ="));
    await page.waitForFunction((v) => Number(document.getElementById('preview')?.dataset.version) > v, WAIT, before.version);
    const state = await shown(page);
    assert.equal(state.ok, false);
    assert.match(state.error, /threw while rendering: Deliberate failure \(at .*Invoice\.tsx:\d+:\d+\)/);
  });

  test('fixed, it renders again', async () => {
    edit(template, "if (props.number) throw new Error('Deliberate failure');\n", '');
    await page.waitForFunction(() => document.getElementById('preview')?.dataset.ok === 'true', WAIT);
    assert.match(await pdfShown(page, dev.url), /Invoiced to/);
  });

  test('without its props file the template is rendered with its PreviewProps, and with it again once it is back', async () => {
    const propsFile = path.join(project, 'templates', 'Invoice.props.json');
    const saved = fs.readFileSync(propsFile);
    const before = await shown(page);
    fs.rmSync(propsFile);
    await page.waitForFunction((v) => Number(document.getElementById('preview')?.dataset.pdfVersion) > v, WAIT, before.pdfVersion);
    const text = await pdfShown(page, dev.url);
    assert.match(text, /INV-0001/, 'the PreviewProps number');
    assert.doesNotMatch(text, /INV-0042/);
    assert.match(await page.$eval('#status', (s) => s.textContent ?? ''), /rendered with PreviewProps/);

    const without = await shown(page);
    fs.writeFileSync(propsFile, saved);
    await page.waitForFunction((v) => Number(document.getElementById('preview')?.dataset.pdfVersion) > v, WAIT, without.pdfVersion);
    assert.match(await pdfShown(page, dev.url), /INV-0042/);
    assert.match(await page.$eval('#status', (s) => s.textContent ?? ''), /rendered with Invoice\.props\.json/);
  });

  test('Ctrl-C stops the server and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => dev.child.once('exit', resolve));
    dev.child.kill('SIGINT');
    assert.equal(await exited, 0, dev.output());
    await assert.rejects(fetch(dev.url), 'nothing listens any more');
  });
});
