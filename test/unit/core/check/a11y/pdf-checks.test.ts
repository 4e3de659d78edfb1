/**
 * The PDF-side accessibility checks on PDFs built by hand with pdf-lib, one flaw each: what
 * Chromium prints rarely has them (an untagged print, a figure without alt), so each failing
 * branch is shown here on the dictionaries it reads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PDFBool, PDFDocument, PDFName, PDFString, type PDFDict, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import { pdfFindings, readPdfA11yFacts } from '../../../../../src/core/check/a11y/pdf-checks.js';

const METADATA_AT = { file: 'templates/Invoice.tsx', line: 12, column: 9 };

interface Build {
  tagged?: boolean;
  language?: string;
  title?: string;
  displayDocTitle?: boolean;
  /** Figures on page 1, with their /Alt or without one. */
  figures?: (string | undefined)[];
  /** Link annotations on page 2, with their /Contents or without one. */
  links?: (string | undefined)[];
}

/** A two-page PDF with what `build` names, and nothing else. */
async function pdf(build: Build): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pages: PDFPage[] = [doc.addPage(), doc.addPage()];
  const { context, catalog } = doc;
  if (build.title !== undefined) doc.setTitle(build.title);
  if (build.language !== undefined) catalog.set(PDFName.of('Lang'), PDFString.of(build.language));
  if (build.displayDocTitle) catalog.set(PDFName.of('ViewerPreferences'), context.obj({ DisplayDocTitle: true }));
  if (build.tagged) {
    catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: PDFBool.True }));
    const root = context.register(context.obj({ Type: 'StructTreeRoot' }));
    const document = context.obj({ Type: 'StructElem', S: 'Document', P: root }) as PDFDict;
    const documentRef = context.register(document);
    const figures: PDFRef[] = (build.figures ?? []).map((alt) =>
      context.register(context.obj({ Type: 'StructElem', S: 'Figure', P: documentRef, Pg: pages[0].ref, ...(alt !== undefined ? { Alt: PDFString.of(alt) } : {}) })),
    );
    document.set(PDFName.of('K'), context.obj(figures));
    (context.lookup(root) as PDFDict).set(PDFName.of('K'), documentRef);
    catalog.set(PDFName.of('StructTreeRoot'), root);
  }
  if (build.links?.length) {
    const annotations = build.links.map((contents) =>
      context.register(
        context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [10, 10, 100, 30], A: { S: 'URI', URI: PDFString.of('https://example.com') }, ...(contents !== undefined ? { Contents: PDFString.of(contents) } : {}) }),
      ),
    );
    pages[1].node.set(PDFName.of('Annots'), context.obj(annotations));
  }
  return Buffer.from(await doc.save());
}

const rules = (findings: { rule: string }[]) => findings.map((finding) => finding.rule).sort();

describe('the PDF-side accessibility checks', () => {
  test('an untagged PDF with no language and no title: three serious findings, the last two at the metadata', async () => {
    const facts = await readPdfA11yFacts(await pdf({}));
    assert.deepEqual(facts, { tagged: false, language: undefined, title: undefined, displayDocTitle: false, linksWithoutContents: [], figuresWithoutAlt: [] });
    const findings = pdfFindings(facts, METADATA_AT, false);
    assert.deepEqual(rules(findings), ['pdf-lang', 'pdf-tagged', 'pdf-title']);
    assert.ok(findings.every((finding) => finding.impact === 'serious' && finding.source === 'pdf'));
    assert.deepEqual(findings.find((finding) => finding.rule === 'pdf-lang')?.at, METADATA_AT);
    assert.deepEqual(findings.find((finding) => finding.rule === 'pdf-title')?.at, METADATA_AT);
    assert.equal(findings.find((finding) => finding.rule === 'pdf-tagged')?.at, undefined);
    // The page's check said the language was missing: said once.
    assert.deepEqual(rules(pdfFindings(facts, METADATA_AT, true)), ['pdf-tagged', 'pdf-title']);
  });

  test('a title not shown as the window title is a moderate finding', async () => {
    const findings = pdfFindings(await readPdfA11yFacts(await pdf({ tagged: true, language: 'en-GB', title: 'Invoice' })), METADATA_AT, false);
    assert.deepEqual(rules(findings), ['pdf-display-doc-title']);
    assert.equal(findings[0].impact, 'moderate');
    assert.match(findings[0].message, /"Invoice"/);
  });

  test('figures without alternate text are counted with their page; one with alt is not', async () => {
    const facts = await readPdfA11yFacts(await pdf({ tagged: true, language: 'en', title: 'T', displayDocTitle: true, figures: [undefined, 'Company logo', ' '] }));
    assert.deepEqual(facts.figuresWithoutAlt, [1, 1], 'the one without /Alt and the blank one');
    const findings = pdfFindings(facts, METADATA_AT, false);
    assert.deepEqual(rules(findings), ['pdf-figure-alt']);
    assert.equal(findings[0].impact, 'serious');
    assert.match(findings[0].message, /^2 figures have no alternate text in the PDF's tags \(page 1\)/);
  });

  test('link annotations without /Contents are counted on their page', async () => {
    const facts = await readPdfA11yFacts(await pdf({ tagged: true, language: 'en', title: 'T', displayDocTitle: true, links: [undefined, 'Our website', undefined] }));
    assert.deepEqual(facts.linksWithoutContents, [{ page: 2, count: 2 }]);
    const findings = pdfFindings(facts, METADATA_AT, false);
    assert.deepEqual(rules(findings), ['pdf-link-contents']);
    assert.match(findings[0].message, /^2 links have no \/Contents \(page 2\)/);
  });

  test('a PDF with all of it has no findings', async () => {
    const facts = await readPdfA11yFacts(await pdf({ tagged: true, language: 'en-GB', title: 'Invoice', displayDocTitle: true, figures: ['Logo'], links: ['Our website'] }));
    assert.deepEqual(pdfFindings(facts, METADATA_AT, false), []);
  });
});
