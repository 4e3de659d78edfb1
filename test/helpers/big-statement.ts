/**
 * The 2,000-page document of issue 40, shared by every path that must print it whole (the CLI in
 * e2e/big-document.test.ts, the service's A2 and job in contract/big-document-api.test.ts): raw
 * HTML of N A4 sheets, each a heading and a balance, with "Page N of M" in every page's bottom
 * margin; and the check that a PDF is that whole document, by its content: the page count, the
 * first and the last page's text (pdftotext -f/-l), the footers at both ends.
 *
 * The spool's tests (contract/spooled-service.test.ts, e2e/spooled-output.test.ts) print a few
 * dozen sheets of it in the shape that takes the spooled path (StatementShape): tall sheets, and
 * pictures for megabytes.
 */
import assert from 'node:assert/strict';
import { pdfInfo, pdfText } from './pdf.js';

/** Sheet `n`'s balance: a figure that differs on every sheet, so the last page proves it is the last. */
const balance = (n: number) => ((n - 1) * 37.5).toFixed(2);

export interface StatementShape {
  /**
   * Each sheet as tall on screen as on paper (240 mm of the A4 page's 257 mm inside its margins).
   * Chromium streams a print, and so the spool can take it, only from 20 pages of content as the
   * screen lays it out (core/render/print-pdf.ts STREAM_FROM_PAGES): short sheets are a few lines
   * each on screen, so a statement needs about a hundred of them to stream, tall ones twenty.
   */
  tallSheets?: boolean;
  /**
   * The first N sheets carry a 400x400 picture of seeded noise, drawn by a script in the page:
   * about 470 KiB each in the PDF (deflate gains nothing on noise), so a few sheets make
   * megabytes, and the same every time.
   */
  pictures?: number;
}

/** Page-side: fills every canvas with the same seeded noise (an LCG's high byte: its low bits repeat every 256). */
const DRAW_NOISE = `<script>
  let seed = 1;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
  for (const canvas of document.querySelectorAll('canvas')) {
    const context = canvas.getContext('2d');
    const image = context.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : next();
    context.putImageData(image, 0, 0);
  }
</script>`;

export function bigStatementHtml(pages: number, { tallSheets = false, pictures = 0 }: StatementShape = {}): string {
  const picture = (n: number) => (n <= pictures ? '<canvas width="400" height="400" style="width: 120mm; height: 120mm"></canvas>' : '');
  return `<!doctype html><html lang="en"><style>
    @page { size: A4; margin: 20mm; @bottom-center { content: "Page " counter(page) " of " counter(pages); } }
    section { break-after: page;${tallSheets ? ' height: 240mm;' : ''} }
  </style>${Array.from({ length: pages }, (_, i) => `<section><h2>Statement sheet ${i + 1}</h2><p>Balance carried ${balance(i + 1)}</p>${picture(i + 1)}</section>`).join('')}${pictures ? DRAW_NOISE : ''}</html>`;
}

/** `pdf` is the whole statement of `pages` sheets, its first and last page as printed; `password`: an encrypted one's user password. */
export function assertWholeStatement(pdf: Buffer, pages: number, password?: string): void {
  assert.equal(pdfInfo(pdf, password).pages, pages);
  const first = pdfText(pdf, 1, password);
  assert.match(first, /Statement sheet 1\b/);
  assert.match(first, new RegExp(`Page 1 of ${pages}\\b`));
  const last = pdfText(pdf, pages, password);
  assert.match(last, new RegExp(`Statement sheet ${pages}\\b`));
  assert.match(last, new RegExp(`Balance carried ${balance(pages).replace('.', '\\.')}\\b`));
  assert.match(last, new RegExp(`Page ${pages} of ${pages}\\b`));
}
