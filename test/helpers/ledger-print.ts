/**
 * A long table document as real Chromium prints it, for the spooled finish (issue 40,
 * src/core/pdf/spooled) in test/unit/core/pdf/spooled-finish.test.ts and bench/finish-file.ts:
 * `rows` rows under a header row, a section heading every 500 rows, a link and an image on the
 * first page, a title and a language. The header cells (the column headers and each row's
 * number, `scope="row"`) make Chromium give their structure elements an /ID, `(node########)`
 * strings the finish renumbers, so the tagged print has thousands of them. About 60 rows an A4
 * page; 15,000 rows print on some 250 pages, over 20 MB tagged.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { printPage } from '../../src/core/render/print-pdf.js';
import { ROOT } from './checkout.js';

const IMAGE = `data:image/png;base64,${fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'pool', 'static', 'images', 'red-37x23.png')).toString('base64')}`;

export function ledgerHtml(rows: number): string {
  const sections = Math.ceil(rows / 500);
  const row = (n: number) => `<tr><th scope="row">${n}</th><td>ACC-${String((n * 7919) % 100000).padStart(5, '0')}</td><td>Line ${n} of the ledger, entry text</td><td>${((n * 37) % 10000 / 100).toFixed(2)}</td></tr>`;
  const section = (s: number) =>
    `<section><h2>Ledger, part ${s + 1}</h2><table><thead><tr><th>#</th><th>Account</th><th>Description</th><th>Amount</th></tr></thead><tbody>${Array.from({ length: Math.min(500, rows - s * 500) }, (_, i) => row(s * 500 + i + 1)).join('')}</tbody></table></section>`;
  return `<!doctype html><html lang="en"><head><title>Ledger (${rows} rows)</title></head><body style="font: 9pt sans-serif">
    <h1>Ledger</h1><p>Printed for <a href="https://example.com/ledger">the ledger's page</a>. <img src="${IMAGE}" alt="A red mark" width="37" height="23"></p>
    ${Array.from({ length: sections }, (_, s) => section(s)).join('')}</body></html>`;
}

/** A Chromium started as the engine starts it; `kill` stops it. */
export async function startPrintingBrowser(): Promise<{ browser: Browser; kill: () => Promise<void> }> {
  const { browser, kill } = await launchBrowser({ executablePath: await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot: process.getuid?.() === 0 });
  return { browser, kill };
}

/** `html` printed as the engine prints it (print-pdf.ts), tagged or not, on a page of its own. */
export async function printHtml(browser: Browser, html: string, tagged: boolean): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    await page.setContent(html, { timeout: 120_000 });
    return (await printPage(page, await page.createCDPSession(), { tagged })).pdf;
  } finally {
    await page.close();
  }
}
