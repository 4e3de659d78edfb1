/**
 * The stamp step on PDFs made here (pdf-lib pages, bookmarks added by pdftk-java), read back
 * with qpdf and pdftotext: the stamp is on the pages asked, inside /Artifact BMC ... EMC, the
 * outline unchanged; the test key's TEST is the same kind of stamp; what cannot be drawn is
 * refused naming the remedy.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { ImprintError } from '../../../../src/core/errors.js';
import { parseStamp } from '../../../../src/core/pdf/stamp-options.js';
import { stampPdf } from '../../../../src/core/pdf/stamp-pdf.js';
import { stampTest } from '../../../../src/core/test-key.js';
import { pdfText } from '../../../helpers/pdf.js';
import { artifactMarks, pdfStructure } from '../../../helpers/pdf-structure.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-stamp-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** Three pages, each saying its number, and one bookmark per page (pdftk's update_info). */
async function bookmarkedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 3; page++) doc.addPage([595, 842]).drawText(`Chapter ${page}`, { x: 72, y: 760, size: 20, font });
  const plain = path.join(work, 'plain.pdf');
  fs.writeFileSync(plain, await doc.save());
  const info = path.join(work, 'bookmarks.txt');
  fs.writeFileSync(info, [1, 2, 3].map((page) => `BookmarkBegin\nBookmarkTitle: Chapter ${page}\nBookmarkLevel: 1\nBookmarkPageNumber: ${page}\n`).join(''));
  const marked = path.join(work, 'bookmarked.pdf');
  execFileSync('pdftk', [plain, 'update_info', info, 'output', marked], { timeout: 60_000 });
  return fs.readFileSync(marked);
}

test('a text stamp on page 2: text there alone, one artifact, the outline entry for entry the same', { timeout: 60_000 }, async () => {
  const before = await bookmarkedPdf();
  const stamped = await stampPdf(before, parseStamp({ text: 'CONFIDENTIAL', pages: '2', position: 'bottom' }));
  assert.deepEqual([1, 2, 3].map((page) => pdfText(stamped, page).includes('CONFIDENTIAL')), [false, true, false]);
  assert.equal(artifactMarks(stamped), 1);
  const was = pdfStructure(before);
  assert.equal(was.outlineEntries, 3);
  assert.deepEqual(pdfStructure(stamped).outline, was.outline);
});

test('SVG and PDF stamps are drawn on every page asked; a PDF stamp is its first page', { timeout: 60_000 }, async () => {
  const before = await bookmarkedPdf();
  const svg = await stampPdf(before, parseStamp({ svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="#000"/></svg>', pages: '2-' }));
  assert.equal(artifactMarks(svg), 2);
  const logo = await PDFDocument.create();
  logo.addPage([100, 40]).drawText('ACME', { x: 5, y: 10, size: 24 });
  logo.addPage([100, 40]).drawText('SECOND', { x: 5, y: 10, size: 24 });
  const pdf = await stampPdf(before, parseStamp({ pdf: Buffer.from(await logo.save()).toString('base64'), pages: 'last', position: 'top-left' }));
  assert.match(pdfText(pdf, 3), /ACME/);
  assert.doesNotMatch(pdfText(pdf, 3), /SECOND/);
  assert.doesNotMatch(pdfText(pdf, 1), /ACME/);
});

test("the test key's TEST is a stamp too: on every page, an artifact", { timeout: 60_000 }, async () => {
  const tested = await stampTest(await bookmarkedPdf());
  // Drawn along the diagonal, a letter a line in reading order (-raw keeps the order it was drawn in).
  const raw = (page: number) => execFileSync('pdftotext', ['-raw', '-f', String(page), '-l', String(page), '-', '-'], { input: tested, timeout: 30_000 }).toString();
  assert.deepEqual([1, 2, 3].map((page) => /T\s*E\s*S\s*T/.test(raw(page))), [true, true, true]);
  assert.equal(artifactMarks(tested), 3);
});

test('a text Helvetica cannot draw, an SVG without a size, a PDF that is not one: refused with the remedy', { timeout: 60_000 }, async () => {
  const before = await bookmarkedPdf();
  const refused = (stamp: unknown, message: RegExp) =>
    assert.rejects(stampPdf(before, parseStamp(stamp)), (error: unknown) => error instanceof ImprintError && error.code === 'INVALID_INPUT' && message.test(error.message));
  await refused({ text: '草稿' }, /cannot draw: use an SVG or PDF stamp/);
  await refused({ svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>' }, /has no size/);
  await refused({ pdf: Buffer.from('%PDF-1.7 broken').toString('base64') }, /The stamp PDF cannot be used/);
  const empty = await PDFDocument.create();
  empty.addPage([10, 10]);
  await refused({ pdf: Buffer.from(await empty.save()).toString('base64') }, /whose first page draws something/);
});
