/**
 * The 2,000-page document of issue 40, shared by every path that must print it whole (the CLI in
 * e2e/big-document.test.ts, the service's A2 and job in contract/big-document-api.test.ts): raw
 * HTML of N A4 sheets, each a heading and a balance, with "Page N of M" in every page's bottom
 * margin; and the check that a PDF is that whole document, by its content: the page count, the
 * first and the last page's text (pdftotext -f/-l), the footers at both ends.
 */
import assert from 'node:assert/strict';
import { pdfInfo, pdfText } from './pdf.js';

/** Sheet `n`'s balance: a figure that differs on every sheet, so the last page proves it is the last. */
const balance = (n: number) => ((n - 1) * 37.5).toFixed(2);

export function bigStatementHtml(pages: number): string {
  return `<!doctype html><html lang="en"><style>
    @page { size: A4; margin: 20mm; @bottom-center { content: "Page " counter(page) " of " counter(pages); } }
    section { break-after: page; }
  </style>${Array.from({ length: pages }, (_, i) => `<section><h2>Statement sheet ${i + 1}</h2><p>Balance carried ${balance(i + 1)}</p></section>`).join('')}</html>`;
}

/** `pdf` is the whole statement of `pages` sheets, its first and last page as printed. */
export function assertWholeStatement(pdf: Buffer, pages: number): void {
  assert.equal(pdfInfo(pdf).pages, pages);
  const first = pdfText(pdf, 1);
  assert.match(first, /Statement sheet 1\b/);
  assert.match(first, new RegExp(`Page 1 of ${pages}\\b`));
  const last = pdfText(pdf, pages);
  assert.match(last, new RegExp(`Statement sheet ${pages}\\b`));
  assert.match(last, new RegExp(`Balance carried ${balance(pages).replace('.', '\\.')}\\b`));
  assert.match(last, new RegExp(`Page ${pages} of ${pages}\\b`));
}
