/**
 * The `imprint dev` studio in a real browser: the CLI runs as a child process on a temporary
 * project, a headless Chromium (puppeteer-core) drives the studio page. A props edit in the
 * form re-renders the HTML view without a PDF round; a save shows in the HTML view; a broken
 * template shows an overlay naming the file and line, which goes once fixed; a new template
 * file is listed without a restart. A screenshot of the studio is written for a human to look at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { ROOT, cliWithDataDir, tempDir } from '../helpers/cli.js';
import { startDev, stopDev, type DevProcess } from '../helpers/dev-process.js';
import { launchStudioBrowser } from '../helpers/studio-browser.js';

/** Waits on states, never on time: generous for a busy CI machine. */
const WAIT = { timeout: 90_000 };
/** A save must show within about a second; a few seconds is the deadline of the wait, not the claim. */
const SAVE_WAIT = { timeout: 15_000, polling: 20 };
const OUTPUT = path.join(ROOT, 'test-output', 'dev-studio');

/** The text of the HTML view's laid-out pages (the iframe is same-origin with the studio). */
const htmlViewText = (page: Page) =>
  page.evaluate(() => {
    const frame = document.querySelector('iframe[data-testid="html-view"]') as HTMLIFrameElement | null;
    return frame?.contentDocument?.getElementById('pages')?.innerText ?? '';
  });

/** The first page's margin boxes as Paged.js draws them: CSS generated content, so read from their ::after. */
const marginBoxes = (page: Page) =>
  page.evaluate(() => {
    const frame = document.querySelector('iframe[data-testid="html-view"]') as HTMLIFrameElement;
    const doc = frame.contentDocument!;
    const first = doc.querySelector('.pagedjs_page');
    return Array.from(first?.querySelectorAll('.pagedjs_margin-content') ?? [], (box) => frame.contentWindow!.getComputedStyle(box, '::after').content).filter(
      (content) => content && content !== 'none' && content !== 'normal',
    );
  });

const studio = (page: Page) =>
  page.$eval('.studio', (el) => ({
    renders: Number((el as HTMLElement).dataset.renders),
    artifactVersion: Number((el as HTMLElement).dataset.artifactVersion),
    pdf: (el as HTMLElement).dataset.pdfState,
  }));

describe('imprint dev: the studio', () => {
  const project = path.join(tempDir(), 'studio');
  const templates = path.join(project, 'templates');
  const template = path.join(templates, 'Invoice.tsx');
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
    dev = await startDev(project, cli.dataDir);
    ({ browser, page } = await launchStudioBrowser());
  });

  after(async () => {
    await browser?.close();
    await stopDev(dev);
  });

  test('opens on the first template with its props file, its pages in the HTML view and its PDF', async () => {
    await page.goto(dev.url);
    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-template') === 'Invoice', WAIT);
    await page.waitForFunction(() => Number(document.querySelector('.studio')?.getAttribute('data-renders')) > 0, WAIT);
    assert.match(await htmlViewText(page), /INV-0042/, 'seeded from Invoice.props.json');
    assert.equal(await page.$eval('[data-testid="fixture-select"]', (s) => (s as HTMLSelectElement).value), 'Invoice.props.json');
    // Paged: page boxes with the footer's margin box and its page number, as the print has them.
    const boxes = (await marginBoxes(page)).join(' | ');
    assert.match(boxes, /Acme Ltd/, boxes);
    assert.match(boxes, /counter\(page\)/, boxes);
    assert.match(await page.$eval('[data-testid="page-count"]', (s) => s.textContent ?? ''), /^[1-9]\d* pages?$/);
    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
    assert.match(await page.$eval('[data-testid="pdf-state"]', (s) => s.textContent ?? ''), /up to date · \d+ pages?/);
    // pdf.js draws the printed pages, and their thumbnails.
    await page.waitForSelector('[data-testid="pdf-view"] canvas.pdf-page', WAIT);
    await page.waitForSelector('.pdf-thumbs canvas.pdf-thumb', WAIT);
  });

  test('a props edit in the form re-renders the HTML view at once, before any PDF round', async () => {
    const before = await studio(page);
    const input = (await page.waitForSelector('#root_number', WAIT)) as ElementHandle<HTMLInputElement>;
    await input.click({ count: 3 });
    await input.type('INV-7777');
    await page.waitForFunction(() => {
      const frame = document.querySelector('iframe[data-testid="html-view"]') as HTMLIFrameElement | null;
      return frame?.contentDocument?.getElementById('pages')?.innerText.includes('INV-7777');
    }, WAIT);
    const after = await studio(page);
    assert.ok(after.renders > before.renders);
    assert.equal(after.pdf, 'stale', 'the HTML view changed while the PDF is still being printed');
    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
  });

  test('a value of the wrong type is marked with the same path message as `render`', async () => {
    await page.click('.tabs [role="tab"]:nth-child(2)');
    const json = (await page.waitForSelector('textarea.raw-json')) as ElementHandle<HTMLTextAreaElement>;
    const text = await json.evaluate((t) => t.value);
    const wrong = JSON.stringify({ ...JSON.parse(text), taxRate: 'lots' }, null, 2);
    await json.evaluate((t, value) => {
      // React listens for input events on a value set through the element's own setter.
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(t, value);
      t.dispatchEvent(new Event('input', { bubbles: true }));
    }, wrong);
    const errors = await page.waitForSelector('[data-testid="props-errors"]', WAIT);
    assert.match(await errors!.evaluate((e) => e.textContent ?? ''), /taxRate: expected number, got "lots"/);
    assert.match(await page.$eval('[data-testid="overlay"]', (e) => e.textContent ?? ''), /do not match/);
    await json.evaluate((t, value) => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(t, value);
      t.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
    await page.waitForFunction(() => !document.querySelector('[data-testid="overlay"]'), WAIT);
    await page.click('.tabs [role="tab"]:nth-child(1)');
  });

  test('a save to the template shows in the HTML view within about a second', async () => {
    const frameHas = (text: string) =>
      page.waitForFunction(
        (t) => {
          const frame = document.querySelector('iframe[data-testid="html-view"]') as HTMLIFrameElement | null;
          return frame?.contentDocument?.getElementById('pages')?.innerText.includes(t);
        },
        SAVE_WAIT,
        text,
      );
    const latencies: string[] = [];
    for (const [from, to] of [
      ['Billed to', 'Billed, to'],
      ['Billed, to', 'Billed to:'],
      ['Billed to:', 'Invoiced to'],
    ]) {
      // Measured from a quiet studio: the PDF of the last change printed, as after a pause in typing.
      await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
      const before = await studio(page);
      const started = performance.now();
      edit(template, from, to);
      await page.waitForFunction((v) => Number(document.querySelector('.studio')?.getAttribute('data-artifact-version')) > v, SAVE_WAIT, before.artifactVersion);
      const built = Math.round(performance.now() - started);
      await frameHas(to);
      const total = Math.round(performance.now() - started);
      const renderMs = await page.$eval('.studio', (el) => (el as HTMLElement).dataset.renderMs);
      latencies.push(`${total} ms (build announced at ${built} ms; the render in the view took ${renderMs} ms)`);
    }
    console.log(`save to HTML view: ${latencies.join('; ')}`);
    // The form's edit survives the save: the props are the studio's, not the file's.
    assert.match(await htmlViewText(page), /INV-7777/);
  });

  test('a build error shows an overlay with the file and line; the last good pages stay under it; fixed, it goes', async () => {
    edit(template, '<h1>Invoice</h1>', '<h1>Invoice</h1');
    const overlay = await page.waitForSelector('[data-testid="overlay"]', WAIT);
    const text = await overlay!.evaluate((e) => e.textContent ?? '');
    assert.match(text, /failed to build/);
    const href = await page.$eval('[data-testid="overlay"] a.open-in-editor', (a) => a.getAttribute('href') ?? '');
    assert.match(href, new RegExp(`^vscode://file/${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+$`));
    assert.match(await page.$eval('.overlay-path', (e) => e.textContent ?? ''), /Invoice\.tsx:\d+:\d+$/);
    assert.match(await htmlViewText(page), /Invoiced to/, 'the last good render is still there');
    fs.mkdirSync(OUTPUT, { recursive: true });
    const shot = path.join(OUTPUT, 'studio-build-error.png');
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshot (build error): ${shot}`);

    edit(template, '<h1>Invoice</h1', '<h1>Invoice</h1>');
    await page.waitForFunction(() => !document.querySelector('[data-testid="overlay"]'), WAIT);
  });

  test('a render exception shows the line of the template that threw, over the last good pages', async () => {
    edit(template, 'const money =', "if (props.number.startsWith('INV-7')) throw new Error('Deliberate failure');\n  const money =");
    const overlay = await page.waitForSelector('[data-testid="overlay"]', WAIT);
    await page
      .waitForFunction(() => /Deliberate failure/.test(document.querySelector('[data-testid="overlay"]')?.textContent ?? ''), WAIT)
      .catch(async (error: Error) => assert.fail(`${error.message}; the overlay says: ${await overlay!.evaluate((e) => e.textContent)}`));
    const line = fs.readFileSync(template, 'utf8').split('\n').findIndex((l) => l.includes('Deliberate failure')) + 1;
    assert.match(await overlay!.evaluate((e) => e.textContent ?? ''), new RegExp(`Invoice\\.tsx:${line}:\\d+`));
    // The new artifact's frame threw: the last good pages stay on show under the overlay.
    assert.match(await htmlViewText(page), /INV-7777/);
    edit(template, "if (props.number.startsWith('INV-7')) throw new Error('Deliberate failure');\n  ", '');
    await page.waitForFunction(() => !document.querySelector('[data-testid="overlay"]'), WAIT);
  });

  test('save as fixture writes <Name>.<label>.props.json and selects it in the URL', async () => {
    await page.type('input[aria-label="fixture label"]', 'edited');
    await page.click('.save-fixture button');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('props') === 'Invoice.edited.props.json', WAIT);
    const saved = JSON.parse(fs.readFileSync(path.join(templates, 'Invoice.edited.props.json'), 'utf8'));
    assert.equal(saved.number, 'INV-7777');
  });

  test('a new template file is listed without a restart, and its URL opens it', async () => {
    await page.goto(dev.url);
    await page.waitForSelector('a[data-template="Invoice"]', WAIT);
    fs.writeFileSync(path.join(templates, 'Letter.tsx'), "export default function Letter({ to }: { to: string }) {\n  return <p>Dear {to},</p>;\n}\nLetter.PreviewProps = { to: 'Ada' };\n");
    await page.waitForSelector('a[data-template="Letter"]', WAIT);
    await page.goto(`${dev.url}?t=Letter`);
    await page.waitForFunction(() => Number(document.querySelector('.studio')?.getAttribute('data-renders')) > 0, WAIT);
    assert.match(await htmlViewText(page), /Dear Ada,/, 'PreviewProps when no props file');
  });

  test('the form covers booleans, enums, dates and arrays with add, reorder and remove', async () => {
    await page.goto(dev.url);
    await page.waitForSelector('a[data-template="Invoice"]', WAIT);
    fs.writeFileSync(
      path.join(templates, 'Kinds.tsx'),
      [
        'export interface KindsProps {',
        '  paid: boolean;',
        "  status: 'draft' | 'sent';",
        '  /** @format date */',
        '  due: string;',
        '  items: string[];',
        '}',
        'export default function Kinds(props: KindsProps) {',
        '  return <div><p>{props.paid ? "PAID" : "UNPAID"} {props.status.toUpperCase()} due {props.due}</p><p>items: {props.items.join(", ")}</p></div>;',
        '}',
        "Kinds.PreviewProps = { paid: false, status: 'draft', due: '2026-01-31', items: ['alpha', 'beta'] };",
        '',
      ].join('\n'),
    );
    await page.waitForSelector('a[data-template="Kinds"]', WAIT);
    await page.goto(`${dev.url}?t=Kinds&props=PreviewProps`);
    await page.waitForFunction(() => Number(document.querySelector('.studio')?.getAttribute('data-renders')) > 0, WAIT);
    const viewHas = (text: string) =>
      page
        .waitForFunction(
          (t) => (document.querySelector('iframe[data-testid="html-view"]') as HTMLIFrameElement | null)?.contentDocument?.getElementById('pages')?.innerText.includes(t),
          WAIT,
          text,
        )
        .catch(async (error: Error) => {
          const overlay = await page.$eval('[data-testid="overlay"]', (e) => e.textContent).catch(() => 'none');
          assert.fail(`${error.message}: "${text}" not in the view, which shows "${await htmlViewText(page)}"; overlay: ${overlay}`);
        });
    await viewHas('UNPAID DRAFT due 2026-01-31');
    assert.equal(await page.$eval('#root_due', (i) => (i as HTMLInputElement).type), 'date');
    await page.click('#root_paid');
    // The enum's options carry their index as value (react-jsonschema-form's way): pick by label.
    const sent = await page.$eval('#root_status', (select) => Array.from((select as HTMLSelectElement).options).find((o) => o.textContent === 'sent')?.value ?? '');
    await page.select('#root_status', sent);
    await viewHas('PAID SENT');
    // Arrays: add an item, move it up, remove the first.
    await page.click('.btn-add');
    const added = (await page.waitForSelector('#root_items_2', WAIT)) as ElementHandle<HTMLInputElement>;
    await added.type('gamma');
    await viewHas('items: alpha, beta, gamma');
    const moveUp = await page.$$('.rjsf-array-item-move-up');
    await moveUp[2].click();
    await viewHas('items: alpha, gamma, beta');
    const remove = await page.$$('.rjsf-array-item-remove');
    await remove[0].click();
    await viewHas('items: gamma, beta');
  });

  test('an image that fails to load is listed in place, while the view still renders', async () => {
    await page.goto(dev.url);
    await page.waitForSelector('a[data-template="Invoice"]', WAIT);
    fs.writeFileSync(path.join(templates, 'Pictured.tsx'), 'export default function Pictured() {\n  return <div><p>With a picture</p><img src="/static/missing.png" alt="" /></div>;\n}\n');
    await page.waitForSelector('a[data-template="Pictured"]', WAIT);
    await page.goto(`${dev.url}?t=Pictured`);
    const problems = await page.waitForSelector('[data-testid="problems"]', WAIT);
    await page.waitForFunction(() => /static\/missing\.png/.test(document.querySelector('[data-testid="problems"]')?.textContent ?? ''), WAIT);
    assert.match(await problems!.evaluate((e) => e.textContent ?? ''), /missing\.png/);
    assert.match(await htmlViewText(page), /With a picture/);
  });

  test('a template whose first build fails opens on its error; deleted, it leaves the list', async () => {
    await page.goto(dev.url);
    await page.waitForSelector('a[data-template="Invoice"]', WAIT);
    const broken = path.join(templates, 'Broken.tsx');
    fs.writeFileSync(broken, 'export default function Broken() {\n  return <p>unclosed</p;\n}\n');
    await page.waitForSelector('a[data-template="Broken"]', WAIT);
    await page.goto(`${dev.url}?t=Broken`);
    const overlay = await page.waitForSelector('[data-testid="overlay"]', WAIT);
    assert.match(await overlay!.evaluate((e) => e.textContent ?? ''), /failed to build/);
    assert.match(await page.$eval('.overlay-path', (e) => e.textContent ?? ''), new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+$`));
    // Deleted, it leaves the list.
    fs.rmSync(broken);
    await page.waitForFunction(() => !document.querySelector('a[data-template="Broken"]'), WAIT);
  });

  test('a screenshot of the studio is written for a human to look at', async () => {
    await page.goto(`${dev.url}?t=Invoice&props=Invoice.props.json`);
    await page.waitForFunction(() => Number(document.querySelector('.studio')?.getAttribute('data-renders')) > 0, WAIT);
    await page.waitForFunction(() => document.querySelector('.studio')?.getAttribute('data-pdf-state') === 'fresh', WAIT);
    await page.waitForSelector('[data-testid="pdf-view"] canvas.pdf-page', WAIT);
    fs.mkdirSync(OUTPUT, { recursive: true });
    const shot = path.join(OUTPUT, 'studio.png');
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshot: ${shot}`);
    assert.ok(fs.statSync(shot).size > 10_000);
  });

  test('another site can neither write through the studio nor read it by another name', async () => {
    const response = await fetch(new URL('/api/t/Invoice/fixtures', dev.url), {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'x', props: {} }),
    });
    assert.equal(response.status, 403);
    assert.equal(fs.existsSync(path.join(templates, 'Invoice.x.props.json')), false);
    // Asked by another name (a DNS name rebound to 127.0.0.1), it answers nothing.
    // (fetch cannot set Host: node:http can.)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL('/api/templates', dev.url);
      http.get({ hostname: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject);
    });
    assert.equal(status, 403);
  });

  test('the HTML view may reach this server alone, as a print reaches nothing but its artifact', async () => {
    const response = await fetch(new URL('/preview/Invoice/', dev.url));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), "default-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'");
  });
});
