/**
 * The merge's own PDF plumbing, which pdf-lib has no API for: the outline writer (PDF 32000
 * 12.3.3: Parent/Prev/Next/First/Last and Count as the visible descendants) and the remapping of
 * a part's destinations (explicit arrays, names in /Dests, strings in the /Names tree, GoTo
 * actions) onto the pages the part's copy has in the merged document. Parts are made here with
 * pdf-lib; the merged file is also checked by qpdf --check.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { PDFArray as PdfArray, PDFDict, PDFDocument, PDFNumber as PdfNumber, PDFObject, PDFRef } from '@cantoo/pdf-lib';
import { loadPdfLib, type PdfLib } from '../../../../../src/core/pdf/pdf-lib.js';
import { itemTarget, pageIndexes, pageTarget } from '../../../../../src/core/pdf/merge/destinations.js';
import { mergePdfs } from '../../../../../src/core/pdf/merge/merge-pdfs.js';
import { readOutline, writeOutline, type OutlineNode, type WrittenNode } from '../../../../../src/core/pdf/merge/outline.js';
import { detachPartPages, reattachPartLinks } from '../../../../../src/core/pdf/merge/part-links.js';

const lib: PdfLib = await loadPdfLib();
const { PDFArray, PDFDict: Dict, PDFHexString, PDFName, PDFNumber, PDFRef: Ref, PDFString } = lib;
const name = (value: string) => PDFName.of(value);

async function pages(count: number, title?: string): Promise<PDFDocument> {
  const doc = await lib.PDFDocument.create({ updateMetadata: false });
  for (let index = 0; index < count; index++) doc.addPage([200, 300 + index]);
  if (title) doc.setTitle(title);
  return doc;
}

/** A raw outline item list under `parent`, as a producer writes one (no Count, Next chain only). */
function rawItems(doc: PDFDocument, parent: PDFRef, items: { title: string; dest?: PDFObject; action?: PDFObject; kids?: Parameters<typeof rawItems>[2] }[]): PDFRef[] {
  const refs = items.map(() => doc.context.nextRef());
  items.forEach((item, index) => {
    const dict = doc.context.obj({}) as PDFDict;
    dict.set(name('Title'), PDFHexString.fromText(item.title));
    dict.set(name('Parent'), parent);
    if (index + 1 < refs.length) dict.set(name('Next'), refs[index + 1]);
    if (item.dest) dict.set(name('Dest'), item.dest);
    if (item.action) dict.set(name('A'), item.action);
    const kids = rawItems(doc, refs[index], item.kids ?? []);
    if (kids.length) dict.set(name('First'), kids[0]);
    doc.context.assign(refs[index], dict);
  });
  return refs;
}

function setOutline(doc: PDFDocument, items: Parameters<typeof rawItems>[2]): void {
  const root = doc.context.nextRef();
  const top = rawItems(doc, root, items);
  doc.context.assign(root, doc.context.obj({ Type: 'Outlines', First: top[0], Last: top[top.length - 1] }));
  doc.catalog.set(name('Outlines'), root);
}

/** Named destinations both ways a file may hold them: /Dests (names) and the /Names tree (strings). */
function nameDestinations(doc: PDFDocument, byName: Record<string, number>, byString: Record<string, number>): void {
  const page = (index: number) => doc.getPage(index).ref;
  doc.catalog.set(name('Dests'), doc.context.obj(Object.fromEntries(Object.entries(byName).map(([key, index]) => [key, [page(index), name('Fit')]]))));
  const leaf = doc.context.obj({ Names: Object.entries(byString).flatMap(([key, index]) => [PDFString.of(key), doc.context.obj({ D: [page(index), name('XYZ'), 0, 100, null] })]) });
  // One level of /Kids, as long trees have.
  doc.catalog.set(name('Names'), doc.context.obj({ Dests: doc.context.obj({ Kids: [doc.context.register(leaf)] }) }));
}

function addLink(doc: PDFDocument, pageIndex: number, target: { dest?: PDFObject; action?: PDFObject }): PDFRef {
  const annot = doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [10, 10, 50, 20] }) as PDFDict;
  if (target.dest) annot.set(name('Dest'), target.dest);
  if (target.action) annot.set(name('A'), target.action);
  const ref = doc.context.register(annot);
  doc.getPage(pageIndex).node.set(name('Annots'), doc.context.obj([ref]));
  return ref;
}

/** Each link annotation's destination page, as an index of the document's pages (undefined: none). */
function linkPages(doc: PDFDocument): (number | undefined)[] {
  const indexes = pageIndexes(doc);
  return doc.getPages().flatMap((page) => {
    const annots = doc.context.lookup(page.node.get(name('Annots')));
    if (!(annots instanceof PDFArray)) return [];
    return annots.asArray().map((ref) => itemTarget(lib, doc, indexes, doc.context.lookup(ref) as PDFDict)?.pageIndex);
  });
}

const shape = (nodes: OutlineNode[]): unknown => nodes.map((node) => ({ title: node.title, page: node.target?.pageIndex, kids: shape(node.children) }));

describe('destinations', () => {
  test('an explicit array, a /Dests name, a /Names string, a destination dictionary and a GoTo action give the page index', async () => {
    const doc = await pages(4);
    nameDestinations(doc, { chapter: 2 }, { 'section-1': 3 });
    const indexes = pageIndexes(doc);
    assert.deepEqual(pageTarget(lib, doc, indexes, doc.context.obj([doc.getPage(1).ref, name('XYZ'), 5, 6, 0])), { pageIndex: 1, view: [name('XYZ'), PDFNumber.of(5), PDFNumber.of(6), PDFNumber.of(0)] });
    assert.equal(pageTarget(lib, doc, indexes, name('chapter'))?.pageIndex, 2);
    assert.equal(pageTarget(lib, doc, indexes, PDFString.of('section-1'))?.pageIndex, 3);
    const action = doc.context.obj({ S: 'GoTo', D: PDFString.of('section-1') }) as PDFDict;
    assert.equal(itemTarget(lib, doc, indexes, doc.context.obj({ A: action }) as PDFDict)?.pageIndex, 3);
  });

  test('a name no tree holds, a reference that is no page of the document and a URI action lead nowhere', async () => {
    const doc = await pages(2);
    nameDestinations(doc, {}, {});
    const indexes = pageIndexes(doc);
    assert.equal(pageTarget(lib, doc, indexes, name('missing')), undefined);
    assert.equal(pageTarget(lib, doc, indexes, PDFString.of('missing')), undefined);
    assert.equal(pageTarget(lib, doc, indexes, doc.context.obj([Ref.of(9999), name('Fit')])), undefined);
    const uri = doc.context.obj({ A: doc.context.obj({ S: 'URI', URI: PDFString.of('https://example.org') }) }) as PDFDict;
    assert.equal(itemTarget(lib, doc, indexes, uri), undefined);
  });

  test("a part's links point at its copied pages in the merged document; a dangling one loses its destination", async () => {
    const part = await pages(3);
    nameDestinations(part, { last: 2 }, { middle: 1 });
    addLink(part, 0, { dest: name('last') });
    addLink(part, 1, { action: part.context.obj({ S: 'GoTo', D: PDFString.of('middle') }) });
    addLink(part, 2, { dest: name('gone') });
    const base = await pages(2);

    detachPartPages(lib, part);
    const copied = await base.copyPages(part, part.getPageIndices());
    // Inserted after the base's first page: the part's pages are 1, 2, 3 of the merged document.
    copied.forEach((page, offset) => base.insertPage(1 + offset, page));
    reattachPartLinks(lib, base, copied, copied.map((page) => page.ref));

    assert.deepEqual(linkPages(base), [3, 2, undefined]);
    // Explicit page references now: nothing names the part's /Dests or /Names, which were not copied.
    const first = base.context.lookup((base.context.lookup(base.getPage(1).node.get(name('Annots'))) as PdfArray).get(0)) as PDFDict;
    assert.ok((base.context.lookup(first.get(name('Dest'))) as PdfArray).get(0) instanceof Ref);
  });
});

describe('the outline', () => {
  test('readOutline follows names, actions and nesting, and stops at a /Next chain that loops', async () => {
    const doc = await pages(3);
    nameDestinations(doc, { two: 1 }, { three: 2 });
    setOutline(doc, [
      { title: 'Intro', dest: doc.context.obj([doc.getPage(0).ref, name('Fit')]), kids: [{ title: 'Détails €', dest: name('two') }] },
      { title: 'End', action: doc.context.obj({ S: 'GoTo', D: PDFString.of('three') }) },
      { title: 'Web', action: doc.context.obj({ S: 'URI', URI: PDFString.of('https://example.org') }) },
    ]);
    const read = readOutline(lib, doc);
    assert.deepEqual(shape(read.nodes), [
      { title: 'Intro', page: 0, kids: [{ title: 'Détails €', page: 1, kids: [] }] },
      { title: 'End', page: 2, kids: [] },
      { title: 'Web', page: undefined, kids: [] },
    ]);
    assert.equal(read.refs.length, 5, 'the root and its four items, for the caller to delete');

    // The last item's /Next made to point back at the first: read once each, no endless loop.
    const last = doc.context.lookup(read.refs[4]) as PDFDict;
    last.set(name('Next'), read.refs[1]);
    assert.equal(readOutline(lib, doc).nodes.length, 3);
  });

  test('writeOutline links every item both ways, counts the visible descendants and opens the bookmarks pane', async () => {
    const doc = await pages(3);
    const ref = (index: number) => doc.getPage(index).ref;
    const nodes: WrittenNode[] = [
      { title: 'Cover', page: ref(0), view: [name('Fit')], children: [] },
      {
        title: 'Invoice',
        page: ref(1),
        view: [name('Fit')],
        children: [
          { title: 'Lines', page: ref(1), view: [], children: [{ title: 'Totals', page: ref(2), view: [], children: [] }] },
          { title: 'No page', view: [], children: [] },
        ],
      },
    ];
    writeOutline(lib, doc, nodes);

    const root = doc.context.lookup(doc.catalog.get(name('Outlines'))) as PDFDict;
    assert.equal(doc.catalog.get(name('PageMode')), name('UseOutlines'));
    assert.equal((root.get(name('Count')) as PdfNumber).asNumber(), 5);
    const item = (value: PDFObject | undefined) => doc.context.lookup(value) as PDFDict;
    const cover = item(root.get(name('First')));
    const invoice = item(root.get(name('Last')));
    assert.equal(item(cover.get(name('Next'))), invoice);
    assert.equal(item(invoice.get(name('Prev'))), cover);
    assert.equal(cover.get(name('Prev')), undefined);
    assert.equal(cover.get(name('Count')), undefined, 'a leaf has no Count');
    assert.equal((invoice.get(name('Count')) as PdfNumber).asNumber(), 3);
    const lines = item(invoice.get(name('First')));
    assert.equal(item(lines.get(name('Parent'))), invoice);
    assert.equal(item(item(lines.get(name('First'))).get(name('Parent'))), lines);
    const noPage = item(invoice.get(name('Last')));
    assert.equal(noPage.get(name('Dest')), undefined, 'an item without a page is written without a destination');

    // What pdf-lib itself reads back from the saved file, titles' Unicode included.
    const saved = await lib.PDFDocument.load(await doc.save());
    assert.deepEqual(shape(readOutline(lib, saved).nodes), [
      { title: 'Cover', page: 0, kids: [] },
      { title: 'Invoice', page: 1, kids: [{ title: 'Lines', page: 1, kids: [{ title: 'Totals', page: 2, kids: [] }] }, { title: 'No page', page: undefined, kids: [] }] },
    ]);
  });

  test('a merge nests each part\'s outline under its entry, its pages remapped, and qpdf finds the file clean', async () => {
    const cover = await pages(2, 'Cover letter');
    setOutline(cover, [{ title: 'Second page', dest: cover.context.obj([cover.getPage(1).ref, name('Fit')]) }]);
    const main = await pages(3);
    nameDestinations(main, {}, { totals: 2 });
    setOutline(main, [{ title: 'Totals', dest: PDFString.of('totals') }]);
    const terms = await pages(1);

    const merged = await mergePdfs(
      { pdf: Buffer.from(await main.save()), name: 'main', fallbackTitle: 'Document' },
      [{ pdf: Buffer.from(await cover.save()), name: 'cover.pdf' }],
      [{ pdf: Buffer.from(await terms.save()), name: 'append[0]', fallbackTitle: 'terms.pdf' }],
    );
    const doc = await lib.PDFDocument.load(merged);
    assert.equal(doc.getPageCount(), 6);
    assert.deepEqual(shape(readOutline(lib, doc).nodes), [
      { title: 'Cover letter', page: 0, kids: [{ title: 'Second page', page: 1, kids: [] }] },
      { title: 'Document', page: 2, kids: [{ title: 'Totals', page: 4, kids: [] }] },
      { title: 'terms.pdf', page: 5, kids: [] },
    ]);
    // The page sizes tell the parts apart: each part's pages in order, where its entry says.
    assert.deepEqual(doc.getPages().map((page) => page.getHeight()), [300, 301, 300, 301, 302, 300]);

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-merge-unit-')), 'merged.pdf');
    try {
      fs.writeFileSync(file, merged);
      assert.match(execFileSync('qpdf', ['--check', file], { encoding: 'utf8', timeout: 30_000 }), /No syntax or stream encoding errors found/);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
