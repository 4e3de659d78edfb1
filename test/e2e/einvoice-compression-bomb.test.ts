/**
 * Issue 41, case 7: `imprint check --einvoice` reads invoices from strangers, and a PDF's
 * attachment is compressed. A 0.6 MB PDF whose factur-x.xml inflates to 600 MiB made the check
 * take 1.26 GB and then die with "Unexpected error: Cannot create a string longer than ...".
 * Now inflating stops at a ceiling and the check says what was too large (exit 1, no stack);
 * an attachment in a filter Imprint does not decode with a ceiling is refused by name; and an
 * object stream, which pdf-lib inflates while it loads the file, stops at its own ceiling.
 * (einvoice-cli.test.ts checks a genuine Factur-X PDF through the same path and finds it valid.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFString } from '@cantoo/pdf-lib';
import { runCli, tempDir } from '../helpers/cli.js';

const work = tempDir('imprint-bomb-');
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** `size` bytes of XML-ish text, deflated in 1 MiB pieces so the test never holds it whole. */
async function deflatedFiller(size: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const piece = Buffer.alloc(1024 * 1024, ' ');
  deflate.write('<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice>');
  for (let written = 0; written < size; written += piece.length) {
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end('</rsm:CrossIndustryInvoice>');
  await ended;
  return Buffer.concat(out);
}

/** A one-page PDF whose embedded file factur-x.xml (listed in /AF, as Factur-X does) holds `contents` under `filter`. */
async function pdfWithAttachment(contents: Buffer, filter: string): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  const file = doc.context.register(PDFRawStream.of(doc.context.obj({ Type: 'EmbeddedFile', Subtype: 'text/xml', Filter: filter, Length: contents.length }), contents));
  const spec = doc.context.register(doc.context.obj({ Type: 'Filespec', F: PDFString.of('factur-x.xml'), UF: PDFString.of('factur-x.xml'), AFRelationship: 'Alternative', EF: { F: file } }));
  doc.catalog.set(PDFName.of('Names'), doc.context.obj({ EmbeddedFiles: { Names: [PDFString.of('factur-x.xml'), spec] } }));
  doc.catalog.set(PDFName.of('AF'), doc.context.obj([spec]));
  const target = path.join(work, `attachment-${filter}.pdf`);
  fs.writeFileSync(target, await doc.save({ useObjectStreams: false }));
  return target;
}

const check = (file: string) => runCli(['check', '--einvoice', file, '--data-dir', path.join(work, 'data')], { cwd: work, timeoutMs: 180_000 });

test('an attachment that inflates to 600 MiB: refused at the ceiling with what was too large (exit 1, no stack)', async () => {
  const bomb = await deflatedFiller(600 * 1024 * 1024);
  const pdf = await pdfWithAttachment(bomb, 'FlateDecode');
  assert.ok(fs.statSync(pdf).size < 2 * 1024 * 1024, `the PDF is small (${fs.statSync(pdf).size} bytes)`);
  const checked = await check(pdf);
  assert.equal(checked.code, 1, checked.describe());
  assert.match(checked.stderr, /The attached factur-x\.xml is larger than 64 MiB once decompressed/);
  assert.doesNotMatch(checked.stderr, /Unexpected error|Cannot create a string|\n\s+at /);
});

test('an attachment in a filter read without a ceiling (/LZWDecode): refused by name', async () => {
  const pdf = await pdfWithAttachment(Buffer.from('not really LZW'), 'LZWDecode');
  const checked = await check(pdf);
  assert.equal(checked.code, 1, checked.describe());
  assert.match(checked.stderr, /factur-x\.xml is encoded with \/LZWDecode, which Imprint does not read/);
});

/** A hand-made PDF whose one object stream inflates to `size` bytes: pdf-lib decodes it while loading. */
async function pdfWithObjectStreamBomb(size: number): Promise<string> {
  const body = await deflatedFiller(size);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  const add = (chunk: string | Buffer) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(bytes);
    at += bytes.length;
  };
  add('%PDF-1.7\n');
  offsets[1] = at;
  add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  offsets[2] = at;
  add('2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n');
  offsets[3] = at;
  add(`3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${body.length} >>\nstream\n`);
  add(body);
  add('\nendstream\nendobj\n');
  const xref = at;
  add(`xref\n0 4\n0000000000 65535 f \n${[1, 2, 3].map((n) => `${String(offsets[n]).padStart(10, '0')} 00000 n \n`).join('')}`);
  add(`trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const target = path.join(work, 'object-stream-bomb.pdf');
  fs.writeFileSync(target, Buffer.concat(parts));
  return target;
}

test('an object stream that inflates to 600 MiB (pdf-lib decodes it while loading): refused at the ceiling (exit 1, no stack)', async () => {
  const pdf = await pdfWithObjectStreamBomb(600 * 1024 * 1024);
  assert.ok(fs.statSync(pdf).size < 2 * 1024 * 1024, `the PDF is small (${fs.statSync(pdf).size} bytes)`);
  const checked = await check(pdf);
  assert.equal(checked.code, 1, checked.describe());
  assert.match(checked.stderr, /A stream of this PDF is larger than 256 MiB once decompressed/);
  assert.doesNotMatch(checked.stderr, /Unexpected error|\n\s+at /);
});
