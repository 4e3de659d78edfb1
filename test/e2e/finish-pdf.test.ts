/**
 * The finishing step's fast path (src/core/pdf/info-rewrite.ts) on PDFs real Chromium printed,
 * plain and tagged, held to pdf-lib's path (finishPdfWithPdfLib): the same Info fields, the
 * same catalog language, the same text, the same structure tree, a file qpdf finds sound,
 * no trace of Chromium's user agent, the same bytes twice; the default render's one pass (the
 * Info rewrite and the tags' packing together, finishPdfPacked) held to the two steps, byte for
 * byte; and PDFs of another shape (one pdf-lib wrote, with object streams) still finished, by pdf-lib.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { compactTags } from '../../src/core/pdf/accessibility.js';
import { finishPdf, finishPdfPacked, finishPdfWithPdfLib, type Finishing } from '../../src/core/pdf/finish-pdf.js';
import { rewriteInfo } from '../../src/core/pdf/info-rewrite.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../../src/core/render/find-browser.js';
import { launchBrowser } from '../../src/core/render/launch-browser.js';
import { openTemplatePage, renderOnTemplatePage } from '../../src/core/render/template-page.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfInfo, pdfText, withFile } from '../helpers/pdf.js';
import { pdfInfoFields, pdfLanguage, pdfStructure } from '../helpers/pdf-metadata.js';

const INVOICE = path.join(INPUTS, 'templates-example', 'invoice', 'Invoice.tsx');
const props = JSON.parse(fs.readFileSync(path.join(INPUTS, 'templates-example', 'invoice', 'props.json'), 'utf8'));

const qpdfCheck = (pdf: Buffer) => withFile(pdf, (file) => execFileSync('qpdf', ['--check', file]).toString());

const FINISHINGS: Record<string, Finishing> = {
  'nothing asked': {},
  'every field, a date, a language': {
    templateMetadata: { title: 'Invoice € 42 (draft) \\ “quoted”' },
    metadata: { author: 'Ann (Accounts)', subject: 'Invoice', keywords: ['order number', 'x'], language: 'de-CH', creator: 'Billing 2.1' },
    date: new Date(Date.UTC(2023, 10, 14, 22, 13, 20)),
  },
  'a title from the page kept, only a date': { date: new Date(Date.UTC(2020, 0, 1)) },
};

describe('finishing a Chromium PDF in place', { timeout: 240_000 }, () => {
  let browser: Browser;
  let kill: () => Promise<void>;
  const printed: Record<'plain' | 'tagged', Buffer> = {} as Record<'plain' | 'tagged', Buffer>;

  before(async () => {
    const { artifact } = await bundleTemplate(INVOICE);
    const launched = await launchBrowser({ executablePath: await findBrowser({ systemPaths: SYSTEM_BROWSER_PATHS }), runningAsRoot: process.getuid?.() === 0 });
    browser = launched.browser;
    kill = launched.kill;
    const page = await openTemplatePage(await browser.newPage(), artifact, 60_000);
    for (const tagged of [false, true]) {
      const rendered = await renderOnTemplatePage(page, props, { tagged });
      assert.notEqual(rendered, 'dirty');
      if (rendered !== 'dirty') printed[tagged ? 'tagged' : 'plain'] = rendered.pdf;
    }
  });
  after(async () => {
    await kill?.();
  });

  for (const kind of ['plain', 'tagged'] as const) {
    for (const [name, finishing] of Object.entries(FINISHINGS)) {
      test(`${kind}, ${name}: what pdf-lib's path gives, read back by pdfinfo, qpdf and pdftotext`, async () => {
        const raw = printed[kind];
        // The fast path is the one taken for Chromium's PDFs.
        assert.ok(rewriteInfo(raw, { text: {}, dates: {} }, () => 'x'), 'a Chromium PDF takes the fast path');
        const fast = await finishPdf(raw, finishing);
        const slow = await finishPdfWithPdfLib(raw, finishing);
        const fastInfo = pdfInfoFields(fast);
        const slowInfo = pdfInfoFields(slow);
        for (const field of ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate', 'Tagged', 'Pages', 'Page size']) {
          assert.equal(fastInfo[field], slowInfo[field], field);
        }
        assert.doesNotMatch(`${fastInfo.Creator} ${fastInfo.Producer}`, /HeadlessChrome|Mozilla/);
        assert.doesNotMatch(fast.toString('latin1'), /HeadlessChrome/, 'the user agent is nowhere in the file');
        assert.match(fastInfo.Producer, /^Imprint .* \(Skia\/PDF m\d+\)$/);
        if (finishing.metadata?.language) {
          // The catalog's /Lang (Chromium's tagged PDF names the page's own lang in its structure too).
          assert.match(fast.toString('latin1'), new RegExp(`/Type /Catalog[^]*?/Lang \\(${finishing.metadata.language}\\)`));
        } else {
          assert.equal(pdfLanguage(fast), pdfLanguage(raw));
        }
        assert.equal(pdfText(fast), pdfText(raw));
        if (kind === 'tagged') assert.equal(pdfStructure(fast), pdfStructure(raw));
        assert.match(qpdfCheck(fast), /No syntax or stream encoding errors/);
        assert.equal(pdfInfo(fast).pages, pdfInfo(raw).pages);
        assert.ok(fast.equals(await finishPdf(raw, finishing)), 'the same bytes twice');
      });
    }
  }

  for (const [name, finishing] of Object.entries(FINISHINGS)) {
    test(`tagged, ${name}: the Info rewrite and the packing in one pass give the bytes of the two steps`, async () => {
      const raw = printed.tagged;
      const packed = finishPdfPacked(raw, finishing);
      assert.ok(packed, 'a Chromium PDF is finished and packed in one pass');
      assert.ok(packed.equals(compactTags(await finishPdf(raw, finishing), {})), 'the same bytes as the Info rewrite, then the packing');
      assert.match(packed.toString('latin1'), /\/Type \/ObjStm/, 'the tags are in object streams');
      assert.equal(pdfInfoFields(packed).Title, pdfInfoFields(await finishPdf(raw, finishing)).Title);
      assert.equal(pdfStructure(packed), pdfStructure(raw));
      assert.match(qpdfCheck(packed), /No syntax or stream encoding errors/);
    });
  }

  test('a PDF of another shape (object streams, as pdf-lib writes it) is finished by pdf-lib', async () => {
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const other = Buffer.from(await (await PDFDocument.load(printed.plain)).save({ useObjectStreams: true }));
    assert.equal(rewriteInfo(other, { text: {}, dates: {} }, () => 'x'), undefined);
    assert.equal(finishPdfPacked(other, {}), undefined, 'nor packed in one pass: the caller takes the steps');
    const finished = await finishPdf(other, { metadata: { title: 'Other' } });
    const info = pdfInfoFields(finished);
    assert.equal(info.Title, 'Other');
    assert.match(info.Creator, /^Imprint /);
    assert.equal(pdfText(finished), pdfText(printed.plain));
  });
});
