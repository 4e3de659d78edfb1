/**
 * The bookmarks renamed in place (src/core/pdf/outline-in-place.ts) on a PDF real Chromium
 * printed tagged, held to pdf-lib's path (outline.ts): the 30-page report's headings
 * (test/fixtures/accessibility/Report.tsx, one renamed and one left out by data-outline) give
 * the same outline, entry for entry, nesting and pages; the text and the structure tree are the
 * file's own; qpdf finds the file sound and no entry of Chromium's outline left reachable; every
 * heading left out leaves no outline at all; the same bytes twice. And the finishing step takes
 * this path for bookmarks alone.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { finishAccessibility } from '../../src/core/pdf/accessibility.js';
import { nameOutline } from '../../src/core/pdf/outline.js';
import { nameOutlineInPlace } from '../../src/core/pdf/outline-in-place.js';
import { loadPdfLib } from '../../src/core/pdf/pdf-lib.js';
import type { PageHeading } from '../../src/core/render/page-facts.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { openTemplatePage, renderOnTemplatePage } from '../../src/core/render/template-page.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfText, withFile } from '../helpers/pdf.js';
import { flatOutline, pdfOutline } from '../helpers/pdf-accessibility.js';
import { pdfStructure } from '../helpers/pdf-metadata.js';
import { pdfObjects } from '../helpers/qpdf.js';

const REPORT = path.join(INPUTS, 'test', 'fixtures', 'accessibility', 'Report.tsx');
const qpdfCheck = (pdf: Buffer) => withFile(pdf, (file) => execFileSync('qpdf', ['--check', file], { timeout: 60_000 }).toString());

async function withPdfLib(pdf: Buffer, headings: PageHeading[]): Promise<Buffer> {
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(pdf, { updateMetadata: false });
  nameOutline(lib, doc, headings);
  return Buffer.from(await doc.save({ useObjectStreams: false, addDefaultPage: false }));
}

describe('bookmarks renamed in place (issue 38)', { timeout: 240_000 }, () => {
  let kill: () => Promise<void>;
  let printed: Buffer;
  let headings: PageHeading[];

  before(async () => {
    const { artifact } = await bundleTemplate(REPORT);
    const launched = await launchBrowser({ executablePath: await findBrowser({ systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot: process.getuid?.() === 0 });
    kill = launched.kill;
    const page = await openTemplatePage(await launched.browser.newPage(), artifact, 120_000);
    const rendered = await renderOnTemplatePage(page, { title: 'Annual report', chapters: 5 }, {});
    assert.notEqual(rendered, 'dirty');
    if (rendered === 'dirty') return;
    printed = rendered.pdf;
    assert.ok(rendered.facts?.headings, 'the page names headings (data-outline), so the facts list them');
    headings = rendered.facts.headings;
  });
  after(async () => {
    await kill?.();
  });

  test("the same outline as pdf-lib's path, the file otherwise the printed one", async () => {
    const fast = nameOutlineInPlace(printed, headings);
    assert.ok(fast, "a Chromium PDF takes the in-place path");
    const outline = pdfOutline(fast);
    assert.deepEqual(outline, pdfOutline(await withPdfLib(printed, headings)));
    const titles = flatOutline(outline).map((entry) => entry.title);
    assert.ok(titles.includes('Quarterly results') && !titles.includes('Part 4.1.2'), titles.join(', '));
    assert.equal(flatOutline(outline).length, flatOutline(pdfOutline(printed)).length - 1, 'one entry left out, none added');
    assert.match(qpdfCheck(fast), /No syntax or stream encoding errors/);
    assert.equal(pdfText(fast), pdfText(printed));
    assert.equal(pdfStructure(fast), pdfStructure(printed));
    assert.ok(fast.equals(nameOutlineInPlace(printed, headings)!), 'the same bytes twice');
  });

  test('the finishing step renames bookmarks in place: the PDF keeps its plain cross-reference table', async () => {
    const finished = await finishAccessibility(printed, {}, { headings });
    assert.deepEqual(pdfOutline(finished), pdfOutline(nameOutlineInPlace(printed, headings)!));
    // pdf-lib's save writes every object anew; in place, the objects before the outline (Chromium
    // writes it last, after the pages and the structure tree) keep their bytes and their offsets.
    const half = Math.floor(printed.length / 2);
    assert.ok(finished.subarray(0, half).equals(printed.subarray(0, half)), 'the first half of the file is the printed one');
  });

  test('every heading left out: no outline at all, and nothing of the old one reachable', () => {
    const fast = nameOutlineInPlace(printed, headings.map((heading) => ({ ...heading, outline: 'none' })))!;
    assert.deepEqual(pdfOutline(fast), []);
    assert.equal(pdfObjects(fast).catalog['/Outlines'], undefined);
    assert.match(qpdfCheck(fast), /No syntax or stream encoding errors/);
  });
});
