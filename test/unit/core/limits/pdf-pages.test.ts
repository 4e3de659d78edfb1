/**
 * The page count the service's page limit reads: the page tree of the file's last revision.
 * Synthetic files shaped like Chromium's (Skia's: leaves, nodes of 8 kids, a catalog, a classic
 * table) for the tree and the bytes that must not count; updates appended by the signature's own
 * writer (incremental-update.ts), in both section forms; files without a table for the repair
 * reading; and real signed files, made by the pipeline's own steps (pdf-lib's save, the tag
 * packer, the encryption step, the signature) and counted by pdfinfo too, at the limit.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import { checkDocumentLimits } from '../../../../src/core/limits/document-limits.js';
import { countPdfPages } from '../../../../src/core/limits/pdf-pages.js';
import { encryptPdf } from '../../../../src/core/pdf/encrypt-pdf.js';
import { DEFAULT_PERMISSIONS } from '../../../../src/core/pdf/encrypt-options.js';
import { packObjectStreams } from '../../../../src/core/pdf/object-streams.js';
import { savePlain } from '../../../../src/core/pdf/pdf-lib.js';
import { incrementalUpdate, lastStartXref } from '../../../../src/core/pdf/sign/incremental-update.js';
import { signDocument } from '../../../../src/core/pdf/sign/sign-document.js';
import { readPkcs12 } from '../../../../src/core/pdf/sign/signing-key.js';
import { pdfInfo } from '../../../helpers/pdf.js';
import { makeSigningPki } from '../../../helpers/signing-pki.js';

interface Built {
  pdf: Buffer;
  catalog: number;
  /** The leaves' object numbers, and the page tree's root. */
  leaves: number[];
  root: number;
  size: number;
}

/**
 * A PDF shaped like Chromium's (Skia's): leaf pages with their content streams, page tree nodes
 * of 8 kids under a root, a catalog, `extra` objects the table does not list (bytes the page
 * smuggled in), a classic table (none with `table: false`) and its trailer.
 */
function skiaPdf(pages: number, extra = '', { table = true } = {}): Built {
  const objects: string[] = [];
  let id = 1;
  const leaves: number[] = [];
  const add = (body: string) => {
    objects.push(`${id} 0 obj\n${body}\nendobj\n`);
    return id++;
  };
  for (let i = 0; i < pages; i++) {
    leaves.push(add('<</Type /Page\n/Resources <<>>\n/MediaBox [0 0 594.95996 841.91998]\n/Parent 999 0 R>>'));
    add('<</Filter /FlateDecode\n/Length 12>> stream\n\x00\x9c\xff binary\nendstream');
  }
  let level = leaves.map((leaf) => ({ id: leaf, count: 1 }));
  do {
    const next: { id: number; count: number }[] = [];
    for (let i = 0; i < level.length || i === 0; i += 8) {
      const kids = level.slice(i, i + 8);
      const count = kids.reduce((sum, kid) => sum + kid.count, 0);
      next.push({ id: add(`<</Type /Pages\n/Count ${count}\n/Kids [${kids.map((k) => `${k.id} 0 R`).join(' ')}]>>`), count });
    }
    level = next;
  } while (level.length > 1);
  const root = level[0]!.id;
  const catalog = add(`<</Type /Catalog\n/Pages ${root} 0 R>>`);
  let text = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(text.length);
    text += object;
  }
  text += `${extra}\n`;
  if (table) {
    const xrefAt = text.length;
    const lines = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
    text += `xref\n0 ${id}\n0000000000 65535 f \n${lines}trailer\n<</Size ${id}\n/Root ${catalog} 0 R>>\nstartxref\n${xrefAt}\n%%EOF`;
  }
  return { pdf: Buffer.from(text, 'latin1'), catalog, leaves, root, size: id };
}

/** `built` with an incremental update appended by the signature's writer: `objects` new versions (by number) and new objects. */
function updated(built: Built, objects: Record<number, string>): Buffer {
  const { startXref, xrefStream } = lastStartXref(built.pdf);
  const size = Math.max(built.size, ...Object.keys(objects).map((n) => Number(n) + 1));
  const update = incrementalUpdate(built.pdf, { startXref, xrefStream, entries: { Root: PDFRef.of(built.catalog) }, size }, Object.entries(objects).map(([n, body]) => ({ ref: PDFRef.of(Number(n)), body })));
  return Buffer.concat([built.pdf, update]);
}

/** A leaf's dictionary as a signature's update writes it again: with the widget in /Annots. */
const pageWithWidget = (widget: number) => `<</Type /Page /Resources <<>> /MediaBox [0 0 594.95996 841.91998] /Annots [${widget} 0 R]>>`;

describe('countPdfPages reads the page tree of the last revision', () => {
  for (const pages of [1, 3, 8, 9, 40, 300, 1001]) {
    test(`${pages} pages`, () => assert.equal(countPdfPages(skiaPdf(pages).pdf), pages));
  }

  test('/Type /Page leaves and /Outlines counts are not the page count', () => {
    const outline = '90 0 obj\n<</Type /Outlines /Count 5000>>\nendobj';
    assert.equal(countPdfPages(skiaPdf(3, outline).pdf), 3);
  });

  // Neither lowers nor raises the count: a text scan would take 9999 for the largest /Count.
  for (const spelled of [1, 9999]) {
    test(`a title spelling a page tree of ${spelled} is not read`, () => {
      const info = `91 0 obj\n<</Title (/Type /Pages /Count ${spelled}) /Producer (Skia/PDF m120)>>\nendobj`;
      assert.equal(countPdfPages(skiaPdf(40, info).pdf), 40);
    });

    test(`objects smuggled in a stream (a JPEG passed through) with a count of ${spelled} are not read`, () => {
      const jpeg = `92 0 obj\n<</Type /XObject /Subtype /Image /Length 60>> stream\n\xff\xd8 endobj 7 0 obj <</Type /Pages /Count ${spelled}>> endobj \xff\xd9\nendstream\nendobj`;
      assert.equal(countPdfPages(skiaPdf(300, jpeg).pdf), 300);
    });
  }

  test('a root /Count lower than its leaves cannot hide them', () => {
    const built = skiaPdf(3);
    const lying = updated(built, { [built.root]: `<</Type /Pages /Count 1 /Kids [${built.leaves.map((leaf) => `${leaf} 0 R`).join(' ')}]>>` });
    assert.equal(countPdfPages(lying), 3);
  });

  for (const form of ['a classic table', 'a cross-reference stream'] as const) {
    test(`an update that writes a page again (a signature's, in ${form}) counts it once`, () => {
      let built = skiaPdf(5);
      if (form === 'a cross-reference stream') {
        built = { ...built, pdf: packObjectStreams(built.pdf) };
        assert.match(built.pdf.toString('latin1'), /\/Type \/XRef/, 'the packer wrote a cross-reference stream');
      }
      const widget = built.size;
      const signed = updated(built, { [widget]: '<</Type /Annot /Subtype /Widget /FT /Sig /Rect [0 0 0 0]>>', [built.leaves[0]!]: pageWithWidget(widget) });
      assert.equal(countPdfPages(signed), 5);
      // A second signature writes the page a third time.
      const twice = updated({ ...built, pdf: signed, size: widget + 1 }, { [widget + 1]: '<</Type /Annot /Subtype /Widget /FT /Sig /Rect [0 0 0 0]>>', [built.leaves[0]!]: pageWithWidget(widget + 1) });
      assert.equal(countPdfPages(twice), 5);
    });
  }

  test('an update that takes pages out of the tree: the last revision has fewer', () => {
    const built = skiaPdf(3);
    const shorter = updated(built, { [built.root]: `<</Type /Pages /Count 2 /Kids [${built.leaves.slice(0, 2).map((leaf) => `${leaf} 0 R`).join(' ')}]>>` });
    assert.equal(countPdfPages(shorter), 2);
  });
});

describe('a file whose cross-reference sections cannot be followed is read as readers repair one', () => {
  test('no table: the largest /Count, spacing and line breaks as the syntax allows them', () => {
    const pdf = Buffer.from('%PDF-1.4\n4 0 obj<</Type/Pages/Kids[1 0 R]/Count   1200>>endobj\n1 0 obj <</Type /Page /Parent 4 0 R>> endobj', 'latin1');
    assert.equal(countPdfPages(pdf), 1200);
    assert.equal(countPdfPages(skiaPdf(40, '', { table: false }).pdf), 40);
  });

  test('a startxref pointing nowhere: the tree still counts, a page written twice once', () => {
    const built = skiaPdf(4);
    const broken = Buffer.from(`${updated(built, { [built.leaves[0]!]: pageWithWidget(99) }).toString('latin1').replace(/startxref\n\d+\n%%EOF\n$/, 'startxref\n999999\n%%EOF\n')}`, 'latin1');
    assert.equal(countPdfPages(broken), 4);
  });

  test('a tree whose nodes lost their counts: its leaves, each object once', () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Page>> endobj\n2 0 obj <</Type /Page>> endobj\n3 0 obj <</Type /Pages /Kids [1 0 R 2 0 R]>> endobj\n1 0 obj <</Type /Page /Annots [4 0 R]>> endobj', 'latin1');
    assert.equal(countPdfPages(pdf), 2);
  });

  test('no page tree at all: undefined, never a guess', () => {
    assert.equal(countPdfPages(Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n%%EOF')), undefined);
    assert.equal(countPdfPages(Buffer.from('not a pdf')), undefined);
    assert.equal(countPdfPages(Buffer.alloc(0)), undefined);
  });
});

describe('real signed files at the page limit', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pages-signed-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));
  const pki = makeSigningPki(path.join(work, 'pki'));
  const key = readPkcs12(fs.readFileSync(pki.signerP12), pki.password, 'signer.p12');
  const PAGES = 12;

  /** PAGES pages as the finishing steps save them (pdf-lib, no object streams). */
  async function finished(): Promise<Buffer> {
    const doc = await PDFDocument.create();
    for (let i = 0; i < PAGES; i++) doc.addPage().drawText(`Page ${i + 1}`, { x: 50, y: 700 });
    return savePlain(doc);
  }

  const shapes: Array<{ name: string; make: () => Promise<Buffer> }> = [
    { name: "pdf-lib's classic table", make: finished },
    {
      name: "the tag packer's cross-reference stream",
      make: async () => {
        const packed = packObjectStreams(await finished());
        assert.match(packed.toString('latin1'), /\/Type \/XRef/, 'the packer wrote a cross-reference stream');
        return packed;
      },
    },
    // No user password: it opens with the empty one, so pdfinfo reads it as it is.
    { name: 'an AES-256 encrypted file', make: async () => encryptPdf(await finished(), { ownerPassword: 'o', permissions: DEFAULT_PERMISSIONS }) },
  ];
  for (const shape of shapes) {
    test(`${shape.name}, signed: ${PAGES} pages as pdfinfo counts them; passes a limit of ${PAGES}, not of ${PAGES - 1}`, async () => {
      const unsigned = await shape.make();
      const signed = await signDocument(Buffer.from(unsigned), key, {});
      assert.ok(signed.length > unsigned.length && signed.subarray(0, unsigned.length).equals(unsigned), 'the signature is an incremental update');
      // The update writes the signed page's dictionary again: the file holds one more /Type /Page than the document has.
      const pageDictionaries = signed.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length;
      assert.equal(pageDictionaries, PAGES + 1, 'the update wrote the signed page again');
      const file = path.join(work, `${shape.name.replace(/\W+/g, '-')}.pdf`);
      fs.writeFileSync(file, signed);
      assert.equal(pdfInfo(file).pages, PAGES);
      assert.equal(countPdfPages(signed), PAGES);
      assert.doesNotThrow(() => checkDocumentLimits(signed, { maxPages: PAGES, maxPdfBytes: Infinity }));
      assert.throws(() => checkDocumentLimits(signed, { maxPages: PAGES - 1, maxPdfBytes: Infinity }), new RegExp(`has ${PAGES} pages, more than the ${PAGES - 1} pages`));
    });
  }
});
