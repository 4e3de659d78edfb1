/**
 * The stamp's fast path (stamp-in-place.ts) on files of the shape the engine hands it (one
 * classic table, plain objects: what Chromium and pdf-lib's saves write): every object but the
 * stamped pages kept byte for byte under one table, which qpdf checks clean; a second stamp (a
 * test key's TEST, then the request's) takes the same path without a name clash; a file of
 * another shape (object streams) is stamped by pdf-lib's path alike.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { parseStamp } from '../../../../src/core/pdf/stamp-options.js';
import { stampPdf } from '../../../../src/core/pdf/stamp-pdf.js';
import { stampTest } from '../../../../src/core/test-key.js';
import { pdfText } from '../../../helpers/pdf.js';
import { artifactMarks } from '../../../helpers/pdf-structure.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-stamp-in-place-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** Four pages saying their number, saved as pdf-lib saves (one classic table, no object streams). */
async function plainPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 4; page++) doc.addPage([595, 842]).drawText(`Page ${page}`, { x: 72, y: 760, size: 20, font });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const qpdfCheck = (pdf: Buffer) => {
  const file = path.join(work, `check-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('qpdf', ['--check', file], { timeout: 60_000 }).toString();
};

/** Each object's source text by number, as the file's own table places it (qpdf's JSON: one object, its final version). */
function objectsOf(pdf: Buffer): Map<string, string> {
  const text = pdf.toString('latin1');
  return new Map([...text.matchAll(/(?:^|\n)(\d+ 0) obj\n([\s\S]*?)\nendobj/g)].map((match) => [match[1], match[2]]));
}

test('stamped in place: the pages asked get the stamp, every other object is the same bytes, one table, qpdf clean', { timeout: 60_000 }, async () => {
  const before = await plainPdf();
  const stamped = await stampPdf(before, parseStamp({ text: 'DRAFT', pages: '2-3' }));
  assert.deepEqual([1, 2, 3, 4].map((page) => pdfText(stamped, page).includes('DRAFT')), [false, true, true, false]);
  assert.equal(artifactMarks(stamped), 2);
  assert.match(qpdfCheck(stamped), /No syntax or stream encoding errors/);
  // One table (no update section), so the steps after read it as they read Chromium's.
  assert.equal(stamped.toString('latin1').match(/\bxref\b/g)?.length, 1);
  const was = objectsOf(before);
  const now = objectsOf(stamped);
  const changed = [...was].filter(([n, body]) => now.get(n) !== body).map(([n]) => now.get(n)!);
  assert.equal(changed.length, 2, 'the two stamped pages, nothing else');
  for (const page of changed) assert.match(page, /\/Type \/Page[\s\S]*\/Contents \[\d+ 0 R \d+ 0 R \d+ 0 R\]/);
});

test('a test key stamp then a request stamp: both in place, each with its own resource names', { timeout: 60_000 }, async () => {
  const twice = await stampPdf(await stampTest(await plainPdf()), parseStamp({ text: 'COPY', pages: 'first', position: 'top' }));
  assert.match(pdfText(twice, 1), /COPY/);
  assert.equal(artifactMarks(twice), 5);
  const text = twice.toString('latin1');
  assert.equal(text.match(/\bxref\b/g)?.length, 1);
  assert.match(text, /\/ImprintStamp2 \d+ 0 R/);
  assert.match(qpdfCheck(twice), /No syntax or stream encoding errors/);
});

test('a file in object streams is stamped too (pdf-lib path), on the pages asked', { timeout: 60_000 }, async () => {
  const plain = path.join(work, 'plain.pdf');
  const packed = path.join(work, 'packed.pdf');
  fs.writeFileSync(plain, await plainPdf());
  execFileSync('qpdf', ['--object-streams=generate', plain, packed], { timeout: 60_000 });
  const stamped = await stampPdf(fs.readFileSync(packed), parseStamp({ text: 'DRAFT', pages: 'last' }));
  assert.deepEqual([1, 2, 3, 4].map((page) => pdfText(stamped, page).includes('DRAFT')), [false, false, false, true]);
  assert.match(qpdfCheck(stamped), /No syntax or stream encoding errors/);
});
