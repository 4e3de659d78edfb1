/**
 * The dev studio's accessibility findings (issue 38), in a real browser: the installed CLI runs
 * `imprint dev` as a child process on a project laid out as users lay theirs out, a headless
 * Chromium drives the studio. Beside the pages, the findings `imprint check --a11y` reports:
 * grouped by impact, each with its rule and a link that opens the JSX line in the editor; the
 * preview is announced before its findings (they are checked after the print); a save that
 * fixes one takes it off the list; a clean template says so. Screenshots are written for a
 * human to look at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import type { TemplateState } from '../../src/web/studio/protocol.js';
import { ROOT, cliWithDataDir, tempDir } from '../helpers/cli.js';
import { startDev, stopDev, type DevProcess } from '../helpers/dev-process.js';
import { launchStudioBrowser } from '../helpers/studio-browser.js';

/** Waits on states, never on time: generous for a busy CI machine. */
const WAIT = { timeout: 90_000 };
const OUTPUT = path.join(ROOT, 'test-output', 'dev-studio');
/** A green pixel (a PNG Chromium draws, so the tagged PDF has a Figure for it). */
const DOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Each file's text; the positions the assertions name are counted from these. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'acme-docs', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true }, include: ['templates'] }),
  // Line 5, column 7: the <img> without alt; line 6, column 7: grey on white; line 12, column 8: its metadata, without a language.
  'templates/Flawed.tsx': `export default function Flawed() {
  return (
    <main>
      <h1>Statement</h1>
      <img src="${DOT}" width={24} height={24} />
      <p style={{ color: '#bbbbbb' }}>Balance due within 30 days</p>
      <h3>Details</h3>
    </main>
  );
}

Flawed.metadata = { title: 'Statement' };
`,
  'templates/Clean.tsx': `export default function Clean() {
  return (
    <main>
      <h1>Letter</h1>
      <p>Dear Ada, all is in order.</p>
    </main>
  );
}

Clean.metadata = { title: 'Letter', language: 'en-GB' };
`,
};

interface ShownFinding {
  impact: string;
  rule: string;
  text: string;
  href?: string;
  link?: string;
}

/** The findings as the studio's panel shows them, read from its DOM. */
const shownFindings = (page: Page) =>
  page.$$eval('[data-testid="a11y"] [data-impact] li', (items) =>
    items.map((li) => {
      const link = li.querySelector('a.open-in-editor');
      return {
        impact: li.closest('[data-impact]')!.getAttribute('data-impact')!,
        rule: li.getAttribute('data-rule')!,
        text: li.textContent ?? '',
        href: link?.getAttribute('href') ?? undefined,
        link: link?.textContent ?? undefined,
      } satisfies ShownFinding;
    }),
  );

const a11yStatus = (page: Page, status: string) =>
  page.waitForFunction((s) => document.querySelector('[data-testid="a11y"]')?.getAttribute('data-status') === s, WAIT, status);

/** Every state the server announces over the studio's event stream, in order; resolved once the stream is open. */
function listen(url: string): Promise<{ states: TemplateState[]; close(): void }> {
  const states: TemplateState[] = [];
  let buffer = '';
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const request = http.get(new URL('/events', url), (response) => {
    opened();
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // Unnamed events are one template's state; `list` and `removed` are not wanted here.
        if (!/^event:/m.test(message)) {
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (data) states.push(JSON.parse(data) as TemplateState);
        }
      }
    });
  });
  const closed = new Error('closed by the test');
  // Ended by close() when the test is done with it; any other error fails the test that waits on the stream.
  request.on('error', (error) => {
    if (error !== closed) throw error;
  });
  return open.then(() => ({ states, close: () => request.destroy(closed) }));
}

describe('imprint dev: accessibility findings beside the pages', { timeout: 300_000 }, () => {
  const project = tempDir('imprint-dev-a11y-');
  const flawed = path.join(project, 'templates', 'Flawed.tsx');
  let dev: DevProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.writeFileSync(path.join(project, file), text);
    }
    dev = await startDev(project, cliWithDataDir().dataDir);
    ({ browser, page } = await launchStudioBrowser());
  });

  after(async () => {
    await browser?.close();
    await stopDev(dev);
    fs.rmSync(project, { recursive: true, force: true });
  });

  test('the findings are grouped by impact, each with its rule and a link to the JSX line', async () => {
    await page.goto(`${dev.url}?t=Flawed`);
    await a11yStatus(page, 'done');
    const findings = await shownFindings(page);
    const described = JSON.stringify(findings, null, 2);
    const find = (rule: string) => findings.find((f) => f.rule === rule) ?? assert.fail(`${rule} not shown: ${described}`);
    const at = (line: number, column: number) => `vscode://file/${flawed}:${line}:${column}`;

    assert.equal(find('image-alt').impact, 'critical');
    assert.equal(find('image-alt').href, at(5, 7), described);
    assert.equal(find('image-alt').link, 'Flawed.tsx:5:7');
    assert.match(find('image-alt').text, /<img>: Images must have alternative text/);
    assert.equal(find('color-contrast').impact, 'serious');
    assert.equal(find('color-contrast').href, at(6, 7), described);
    // Document-wide: at the template's metadata, where the language is set.
    assert.equal(find('html-has-lang').href, at(12, 8), described);
    assert.match(find('html-has-lang').text, /set `language`/);
    assert.equal(find('heading-order').impact, 'moderate');
    assert.equal(find('heading-order').href, at(7, 7), described);
    // The PDF-side check on the tagged print: the figure has no alt in the structure tree either.
    assert.equal(find('pdf-figure-alt').impact, 'serious');
    assert.equal(find('pdf-figure-alt').href, undefined, 'a finding in the PDF has no line');

    // Most severe first, and the summary counts them.
    const impacts = await page.$$eval('[data-testid="a11y"] [data-impact]', (groups) => groups.map((g) => g.getAttribute('data-impact')));
    assert.deepEqual(impacts, ['critical', 'serious', 'moderate']);
    assert.match(await page.$eval('.a11y-summary', (e) => e.textContent ?? ''), /^1 critical · 3 serious · 1 moderate$/);

    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
    fs.mkdirSync(OUTPUT, { recursive: true });
    const shot = path.join(OUTPUT, 'studio-a11y-findings.png');
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshot (findings): ${shot}`);
  });

  test('a save is previewed first and checked after; a fixed finding leaves the list', async () => {
    const events = await listen(dev.url);
    try {
      fs.writeFileSync(flawed, fs.readFileSync(flawed, 'utf8').replace('width={24}', 'alt="Paid" width={24}'));
      await page.waitForFunction(() => !document.querySelector('[data-testid="a11y"] li[data-rule="image-alt"]'), WAIT);
      await a11yStatus(page, 'done');
      const rules = (await shownFindings(page)).map((f) => f.rule);
      assert.ok(!rules.includes('pdf-figure-alt'), `the figure has its alt in the PDF's tags now: ${rules.join(', ')}`);
      assert.ok(rules.includes('color-contrast'), rules.join(', '));

      // Over the stream: the new preview (its PDF printed) while its findings are checked, then the findings.
      const mine = events.states.filter((state) => state.name === 'Flawed' && state.a11y);
      const checking = mine.findIndex((state) => state.a11y!.status === 'checking' && state.ok && !state.building);
      const done = mine.findIndex((state, index) => index > checking && state.a11y!.status === 'done');
      assert.ok(checking >= 0 && done > checking, `announced: ${mine.map((state) => `v${state.version} ${state.a11y!.status}`).join(', ')}`);
      assert.equal(mine[done].version, mine[checking].version, 'the findings belong to the preview announced before them');
    } finally {
      events.close();
    }
  });

  test('a clean template says it has no findings', async () => {
    await page.goto(`${dev.url}?t=Clean`);
    await a11yStatus(page, 'done');
    assert.equal(await page.$eval('[data-testid="a11y"]', (e) => e.getAttribute('data-count')), '0');
    assert.match(await page.$eval('.a11y-summary', (e) => e.textContent ?? ''), /^no findings$/);
    assert.equal((await shownFindings(page)).length, 0);
    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
    const shot = path.join(OUTPUT, 'studio-a11y-clean.png');
    fs.mkdirSync(OUTPUT, { recursive: true });
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshot (clean): ${shot}`);
  });
});
