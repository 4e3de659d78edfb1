/**
 * The browser pool against a real Chromium, through its own API (core, no CLI): the bound on
 * pages at work, warm pages reused with correct output, teams kept in separate contexts, a
 * page that kept something of an earlier render replaced, tagged PDFs. One pool (one browser)
 * for the whole file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import type { PoolEvent } from '../../src/core/render/pool-events.js';
import type { BrowserPool, TemplateJob } from '../../src/core/render/pool.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfFonts, pdfImages, pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';

const fixture = (name: string) => path.join(INPUTS, 'test', 'fixtures', 'pool', name);

function pdfInfoText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pool-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    return execFileSync('pdfinfo', [path.join(dir, 'doc.pdf')]).toString();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('browser pool', () => {
  const events: PoolEvent[] = [];
  let pool: BrowserPool;
  let card: Artifact;
  let leaky: Artifact;
  let effects: Artifact;
  let printer: Artifact;
  let fonts: Artifact;
  let maxActive = 0;
  let maxQueued = 0;

  const job = (artifact: Artifact, props: object, extra: Partial<TemplateJob> = {}): TemplateJob => ({
    isolationKey: 'team:1',
    artifactKey: artifact === card ? 'card' : artifact === leaky ? 'leaky' : artifact === printer ? 'printer' : artifact === fonts ? 'fonts' : 'effects',
    artifact,
    props,
    request: {},
    timeoutMs: 20_000,
    ...extra,
  });
  const count = (type: PoolEvent['type']) => events.filter((event) => event.type === type).length;

  before(async () => {
    [card, leaky, effects, printer, fonts] = await Promise.all(['Card.tsx', 'Leaky.tsx', 'Effects.tsx', 'Printer.tsx', 'Fonts.tsx'].map((name) => bundleTemplate(fixture(name)))).then((built) => built.map((b) => b.artifact));
    pool = createBrowserProvider({
      search: {},
      runningAsRoot: process.getuid?.() === 0,
      pool: { concurrency: 2, pageRecycleAfter: 1000 },
      log: (event) => {
        events.push(event);
        // What the pool itself counts as holding a page, each time a render gets one.
        if (event.type === 'render-start') {
          maxActive = Math.max(maxActive, pool.stats().active);
          maxQueued = Math.max(maxQueued, pool.stats().queued);
        }
      },
    });
  });

  after(async () => {
    await pool.close();
  });

  test('no more than `concurrency` renders hold a page at once, and all finish with their own props', async () => {
    maxActive = 0;
    maxQueued = 0;
    const titles = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6'];
    const pdfs = await Promise.all(titles.map((title) => pool.renderTemplate(job(card, { title }))));
    assert.equal(maxActive, 2, 'two pages at work, never more');
    assert.ok(maxQueued > 0, 'the others waited in the queue');
    pdfs.forEach((doc, index) => {
      const text = pdfText(doc.pdf);
      assert.match(text, new RegExp(`Card ${titles[index]}`));
      for (const other of titles.filter((t) => t !== titles[index])) assert.doesNotMatch(text, new RegExp(`Card ${other}\\b`));
    });
    assert.equal(pool.stats().active, 0);
  });

  test('another render of the same template reuses a warm page and prints only its own props', async () => {
    await pool.renderTemplate(job(card, { title: 'WARMUP' }));
    const opened = count('page-open');
    const first = await pool.renderTemplate(job(card, { title: 'First', customer: { name: 'Acme Ltd', city: 'Lyon' } }));
    const second = await pool.renderTemplate(job(card, { title: 'Second' }));
    assert.equal(count('page-open'), opened, 'no page was opened: the artifact stayed loaded');
    const warmStarts = events.filter((e) => e.type === 'render-start' && e.warm).length;
    assert.ok(warmStarts >= 2, `warm renders: ${warmStarts}`);
    assert.match(pdfText(first.pdf), /Customer Acme Ltd/);
    const text = pdfText(second.pdf);
    assert.match(text, /Card Second/);
    assert.doesNotMatch(text, /First|Acme|Lyon/, 'nothing of the previous render shows');
  });

  test('a size asked for once does not stick to the warm page', async () => {
    const a5 = await pool.renderTemplate(job(card, { title: 'Small' }, { request: { size: 'A5' } }));
    const plain = await pool.renderTemplate(job(card, { title: 'Plain' }));
    const small = pdfInfo(a5.pdf);
    const a4 = pdfInfo(plain.pdf);
    assert.ok(sizeMatches(small, 419.53, 595.28), `A5: ${small.widthPt} x ${small.heightPt}`);
    assert.ok(sizeMatches(a4, 595.28, 841.89), `back to A4: ${a4.widthPt} x ${a4.heightPt}`);
  });

  test('different isolation keys (teams) render in different browser contexts', async () => {
    const browser = await pool.browser();
    await pool.renderTemplate(job(card, { title: 'Team1' }));
    const before = browser.browserContexts().length;
    const other = await pool.renderTemplate(job(card, { title: 'Team2' }, { isolationKey: 'team:2' }));
    assert.match(pdfText(other.pdf), /Card Team2/);
    assert.equal(browser.browserContexts().length, before + 1, 'a context of its own for the second team');
    const keys = events.filter((e): e is Extract<PoolEvent, { type: 'page-open' }> => e.type === 'page-open').map((e) => e.isolationKey);
    assert.ok(keys.includes('team:2'), 'the second team got its own page, not the first team\'s warm one');
  });

  test('work left for after the commit is printed: state set in effects, a chain of them, a frame callback, a ResizeObserver, a lazy image in view and one far below it', async () => {
    // Twice each: on a fresh page and on the warm one.
    for (let round = 0; round < 2; round++) {
      assert.match(pdfText((await pool.renderTemplate(job(effects, { mode: 'state' }))).pdf), /Effects: set in an effect/);
      assert.match(pdfText((await pool.renderTemplate(job(effects, { mode: 'chain' }))).pdf), /Effects: chain of 5 effects done/);
      assert.match(pdfText((await pool.renderTemplate(job(effects, { mode: 'frame' }))).pdf), /Effects: measured wide in a frame/);
      assert.match(pdfText((await pool.renderTemplate(job(effects, { mode: 'resize' }))).pdf), /Effects: sized 321 px by an observer/);
      // A lazy image in view loads once a frame finds it: the page must show frames the document.
      assert.deepEqual(pdfImages((await pool.renderTemplate(job(effects, { mode: 'lazy' }))).pdf), [{ width: 37, height: 23 }]);
      // One below the first screen is never found in view: it must load all the same.
      assert.deepEqual(pdfImages((await pool.renderTemplate(job(effects, { mode: 'lazy-below' }))).pdf), [{ width: 37, height: 23 }]);
    }
  });

  test('on a warm page, a web font no earlier document used is waited for and embedded, and each document is measured afresh', async () => {
    // Between renders the page skips its screen layout (template-page.ts); the next render
    // lays its document out for the screen again, finds the new font and waits for it. (The
    // ResizeObserver case above is the one that fails if the screen is not given back: Chromium
    // 156's print also loads the fonts its own layout needs.)
    const opened = count('page-open');
    const documents = [{ font: false }, { font: true }, { font: false, measure: true }, { font: true, measure: true }];
    for (const [i, { font, measure }] of documents.entries()) {
      const { pdf } = await pool.renderTemplate(job(fonts, { label: `doc${i}`, font, measure }));
      const text = pdfText(pdf);
      assert.match(text, new RegExp(`Fonts doc${i}\\b`));
      if (measure) assert.match(text, /Box measured 37 px/, `doc${i}: the layout effect measured the box`);
      if (font) assert.match(pdfFonts(pdf), /Lora-Bold/, `doc${i}: the web font is embedded`);
      else assert.doesNotMatch(pdfFonts(pdf), /Lora/, `doc${i}: no web font`);
    }
    assert.equal(count('page-open'), opened + 1, 'one page, kept warm, rendered all four');
  });

  test('an error thrown in an effect fails the render, naming it, instead of printing an empty page', async () => {
    await assert.rejects(pool.renderTemplate(job(effects, { mode: 'throw' })), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'RENDER_FAILED');
      assert.match(error.message, /effect failed on purpose/);
      return true;
    });
    assert.match(pdfText((await pool.renderTemplate(job(effects, { mode: 'state' }))).pdf), /set in an effect/);
  });

  test('a page a template wrote outside its root is replaced before the next render', async () => {
    const first = await pool.renderTemplate(job(leaky, { marker: 'ONE' }));
    assert.match(pdfText(first.pdf), /Leftover ONE/);
    const dirtyBefore = events.filter((e) => e.type === 'page-close' && e.reason === 'dirty').length;
    const second = await pool.renderTemplate(job(leaky, { marker: 'TWO' }));
    const text = pdfText(second.pdf);
    assert.match(text, /Leaky TWO/);
    assert.doesNotMatch(text, /ONE/, 'the first render\'s leftover is gone');
    assert.equal(events.filter((e) => e.type === 'page-close' && e.reason === 'dirty').length, dirtyBefore + 1);
  });

  test('a template that calls window.print() and alert() still prints, and so does the next render on its page', async () => {
    // Without the page disarmed, Chromium takes the page for the template's own print and never ends it:
    // the pool's print fails ("Page is already being printed"), and the alert blocks the page until the deadline.
    const first = await pool.renderTemplate(job(printer, { marker: 'P1' }));
    assert.match(pdfText(first.pdf), /Printer P1/);
    const second = await pool.renderTemplate(job(printer, { marker: 'P2' }));
    assert.match(pdfText(second.pdf), /Printer P2/);
    assert.doesNotMatch(pdfText(second.pdf), /P1/);
  });

  test('a template that throws fails that render only; its page is replaced and the next render works', async () => {
    await assert.rejects(pool.renderTemplate(job(card, { title: 'x', fail: 'on purpose' })), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'RENDER_FAILED');
      assert.match(error.message, /asked to fail: on purpose/);
      return true;
    });
    const next = await pool.renderTemplate(job(card, { title: 'AfterFailure' }));
    assert.match(pdfText(next.pdf), /Card AfterFailure/);
  });

  test('tagged by default: the structure tree; tagged: false prints without it', async () => {
    const plain = await pool.renderTemplate(job(card, { title: 'Untagged' }, { request: { tagged: false } }));
    const tagged = await pool.renderTemplate(job(card, { title: 'Tagged' }));
    assert.match(pdfInfoText(plain.pdf), /Tagged:\s+no/);
    assert.match(pdfInfoText(tagged.pdf), /Tagged:\s+yes/);
    assert.ok(tagged.pdf.includes('/StructTreeRoot'), 'a StructTreeRoot in the catalog');
    assert.ok(!plain.pdf.includes('/StructTreeRoot'));
  });
});
