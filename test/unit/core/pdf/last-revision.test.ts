/**
 * The last revision of a PDF, on files pdf-lib writes and updates the signature's writer
 * (incremental-update.ts) appends: the newest section's line for a number wins, a number it
 * frees is gone, and what this does not read (an object inside an object stream, a /Prev that
 * loops) is Shape, for the caller's other path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import { entryValue, Shape } from '../../../../src/core/pdf/classic-pdf.js';
import { readLastRevision } from '../../../../src/core/pdf/last-revision.js';
import { incrementalUpdate, lastStartXref } from '../../../../src/core/pdf/sign/incremental-update.js';

async function onePage(useObjectStreams: boolean): Promise<{ pdf: Buffer; catalog: number; info: number; size: number }> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const pdf = Buffer.from(await doc.save({ useObjectStreams }));
  const { Root, Info } = doc.context.trailerInfo;
  return { pdf, catalog: (Root as PDFRef).objectNumber, info: (Info as PDFRef).objectNumber, size: doc.context.largestObjectNumber + 1 };
}

/** `pdf` with object `n` written again as `body`, by the signature's writer (a classic table or a stream, as the file's). */
function rewritten({ pdf, catalog, size }: { pdf: Buffer; catalog: number; size: number }, n: number, body: string): Buffer {
  const { startXref, xrefStream } = lastStartXref(pdf);
  return Buffer.concat([pdf, incrementalUpdate(pdf, { startXref, xrefStream, entries: { Root: PDFRef.of(catalog) }, size }, [{ ref: PDFRef.of(n), body }])]);
}

const text = (pdf: Buffer) => pdf.toString('latin1');

for (const useObjectStreams of [false, true]) {
  test(`the newest section's version of an object is the one read (${useObjectStreams ? 'cross-reference streams' : 'classic tables'})`, async () => {
    const file = await onePage(useObjectStreams);
    const updated = rewritten(file, file.catalog, '<< /Type /Catalog /Pages 999 0 R /Lang (en-GB) >>');
    const revision = readLastRevision(text(updated));
    assert.equal(revision.root, file.catalog);
    assert.equal(entryValue(revision.dictionary(file.catalog), 'Lang'), '(en-GB)');
    // The file's first version is still in its bytes, before the update.
    assert.match(text(updated), /\/Type \/Catalog[^]*\/Lang \(en-GB\)/);
  });
}

test('a number the newest table marks free is gone', async () => {
  const file = await onePage(false);
  const { startXref } = lastStartXref(file.pdf);
  const freed = Buffer.concat([file.pdf, Buffer.from(`xref\n${file.catalog} 1\n0000000000 00001 f\r\ntrailer\n<< /Size ${file.size} /Root ${file.catalog} 0 R /Prev ${startXref} >>\nstartxref\n${file.pdf.length}\n%%EOF\n`, 'latin1')]);
  assert.throws(() => readLastRevision(text(freed)).dictionary(file.catalog), (error) => error instanceof Shape && /not in use/.test(error.message));
});

test('an object inside an object stream is not read: Shape, naming it', async () => {
  // pdf-lib keeps the catalog and the page tree out of its object streams, not the Info.
  const file = await onePage(true);
  const revision = readLastRevision(text(file.pdf));
  assert.equal(entryValue(revision.dictionary(file.catalog), 'Type'), '/Catalog');
  assert.throws(() => revision.dictionary(file.info), (error) => error instanceof Shape && /object stream/.test(error.message));
});

test('a /Prev that points back at its own section is a loop: Shape', async () => {
  const file = await onePage(false);
  const at = file.pdf.length;
  const looped = Buffer.concat([file.pdf, Buffer.from(`xref\n0 0\ntrailer\n<< /Size ${file.size} /Root ${file.catalog} 0 R /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1')]);
  assert.throws(() => readLastRevision(text(looped)), (error) => error instanceof Shape && /loop/.test(error.message));
});
