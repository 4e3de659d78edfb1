/**
 * The PDF comes back from Chromium as a protocol stream read in chunks (protocol-stream.ts,
 * print-pdf.ts), on a real Chromium: a 60-page document read 16 KiB at a time arrives in many
 * chunks, none larger than asked, whose bytes are the whole PDF (poppler reads its 60 pages and
 * the last page's text), and the stream's handle is closed afterwards, also when the reader
 * stops early (Chromium keeps an open stream's PDF in the browser process). printPage streams
 * the long document and takes a one-page one in the print's answer; Chromium's "Printing failed"
 * becomes RENDER_FAILED saying what to do, and its "Read failed" (its stream's temp file) an
 * error naming the temp folder (contract/spooled-service.test.ts meets the real one).
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../../../../src/core/render/find-browser.js';
import { launchBrowser } from '../../../../src/core/render/launch-browser.js';
import { printPage } from '../../../../src/core/render/print-pdf.js';
import { readProtocolStream } from '../../../../src/core/render/protocol-stream.js';
import { pdfInfo, pdfText } from '../../../helpers/pdf.js';

const PAGES = 60;
const html = `<!doctype html><body>${Array.from({ length: PAGES }, (_, i) => `<section style="break-after: page; height: 900px">Section ${i + 1} ${'text '.repeat(400)}</section>`).join('')}</body>`;

let browser: Browser;
let close: () => Promise<void>;
let page: Page;

before(async () => {
  const launched = await launchBrowser({ executablePath: await findBrowser({ systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot: process.getuid?.() === 0 });
  browser = launched.browser;
  close = launched.kill;
  page = await browser.newPage();
  await page.setContent(html);
});
after(async () => close?.());

const streamOf = async (cdp: Awaited<ReturnType<Page['createCDPSession']>>) =>
  (await cdp.send('Page.printToPDF', { transferMode: 'ReturnAsStream', printBackground: true })).stream!;

test('a print read in small chunks is the whole PDF, and its handle is closed after', { timeout: 120_000 }, async () => {
  const cdp = await page.createCDPSession();
  const handle = await streamOf(cdp);
  const chunks: Buffer[] = [];
  for await (const chunk of readProtocolStream(cdp, handle, 16 << 10)) chunks.push(chunk);
  assert.ok(chunks.length > 3, `read in ${chunks.length} chunks`);
  assert.ok(chunks.every((chunk) => chunk.length <= 16 << 10), 'no chunk larger than asked');
  const pdf = Buffer.concat(chunks);
  assert.equal(pdfInfo(pdf).pages, PAGES);
  assert.match(pdfText(pdf, PAGES), new RegExp(`Section ${PAGES}\\b`));
  await assert.rejects(cdp.send('IO.read', { handle }), /Invalid stream handle|No stream/i, 'the handle is closed');
});

test('a reader that stops early still closes the handle', { timeout: 120_000 }, async () => {
  const cdp = await page.createCDPSession();
  const handle = await streamOf(cdp);
  for await (const chunk of readProtocolStream(cdp, handle, 4 << 10)) {
    assert.equal(chunk.subarray(0, 5).toString(), '%PDF-');
    break;
  }
  await assert.rejects(cdp.send('IO.read', { handle }), /Invalid stream handle|No stream/i);
});

/** The page's CDP session, with the methods sent on it recorded. */
async function recordedSession(target: Page) {
  const cdp = await target.createCDPSession();
  const sent: string[] = [];
  const send = cdp.send.bind(cdp);
  cdp.send = ((method: string, ...rest: unknown[]) => (sent.push(method), (send as (...args: unknown[]) => unknown)(method, ...rest))) as typeof cdp.send;
  return { cdp, sent };
}

test('printPage streams a long document and takes a short one in one answer', { timeout: 120_000 }, async () => {
  const long = await recordedSession(page);
  const { pdf } = await printPage(page, long.cdp, {});
  assert.equal(pdfInfo(pdf).pages, PAGES);
  assert.match(pdfText(pdf, 1), /Section 1\b/);
  assert.ok(long.sent.filter((method) => method === 'IO.read').length > 1, `streamed: ${long.sent.join(' ')}`);

  const shortPage = await browser.newPage();
  await shortPage.setContent('<p>One short page</p>');
  const short = await recordedSession(shortPage);
  const { pdf: one } = await printPage(shortPage, short.cdp, {});
  assert.equal(pdfInfo(one).pages, 1);
  assert.match(pdfText(one), /One short page/);
  assert.ok(!short.sent.includes('IO.read'), `one answer: ${short.sent.join(' ')}`);
});

/**
 * Puppeteer fails any protocol call after 180 s (its protocolTimeout), and a tagged print of
 * 2,000 pages takes longer (bench/big-document.ts): the print's call must carry no timeout of
 * its own, so that only the render's deadline bounds it.
 */
test('the print call carries no Puppeteer timeout of its own', { timeout: 120_000 }, async () => {
  const cdp = await page.createCDPSession();
  const send = cdp.send.bind(cdp);
  const printOptions: unknown[] = [];
  cdp.send = ((method: string, params?: unknown, options?: unknown) => {
    if (method === 'Page.printToPDF') printOptions.push(options);
    return (send as (...args: unknown[]) => unknown)(method, params, options);
  }) as typeof cdp.send;
  const { pdf } = await printPage(page, cdp, {});
  assert.equal(pdfInfo(pdf).pages, PAGES);
  assert.deepEqual(printOptions, [{ timeout: 0 }]);
});

/**
 * Chromium's own failure is out of reach here (its page dies near 2,000 pages of one long table,
 * with 20 GB of memory spent: bench/README.md), so its answer is what the session gives back.
 */
test('a print that Chromium gives up on says what to do, with the stable code', { timeout: 120_000 }, async () => {
  const cdp = await page.createCDPSession();
  const send = cdp.send.bind(cdp);
  cdp.send = ((method: string, ...rest: unknown[]) =>
    method === 'Page.printToPDF'
      ? Promise.reject(Object.assign(new Error('Protocol error (Page.printToPDF): Printing failed'), { name: 'ProtocolError' }))
      : (send as (...args: unknown[]) => unknown)(method, ...rest)) as typeof cdp.send;
  await assert.rejects(printPage(page, cdp, {}), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'RENDER_FAILED');
    assert.match(error.message, /Chromium could not print this document \(about \d+ pages of content\)/);
    assert.match(error.message, /Print a long table.s rows as blocks instead/);
    return true;
  });
});

test("Chromium's \"Read failed\" names the temp folder its stream's file is in, and the handle is closed", { timeout: 120_000 }, async () => {
  const cdp = await page.createCDPSession();
  const handle = await streamOf(cdp);
  const send = cdp.send.bind(cdp);
  cdp.send = ((method: string, ...rest: unknown[]) =>
    method === 'IO.read'
      ? Promise.reject(Object.assign(new Error('Protocol error (IO.read): Read failed'), { name: 'ProtocolError' }))
      : (send as (...args: unknown[]) => unknown)(method, ...rest)) as typeof cdp.send;
  await assert.rejects(
    async () => {
      for await (const chunk of readProtocolStream(cdp, handle)) assert.fail(`no chunk expected, got ${chunk.length} bytes`);
    },
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'INTERNAL');
      assert.ok(error.message.includes(`in its temporary folder (TMPDIR, ${os.tmpdir()})`), error.message);
      assert.match(error.message, /\(Protocol error \(IO\.read\): Read failed\)\. Make TMPDIR a writable folder with room for the biggest documents/);
      return true;
    },
  );
  await assert.rejects(send('IO.read', { handle }), /Invalid stream handle|No stream/i, 'the handle is closed');
});
