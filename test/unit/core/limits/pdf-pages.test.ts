import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countPdfPages } from '../../../../src/core/limits/pdf-pages.js';

/** A PDF shaped like Chromium's (Skia's): leaf pages, then page tree nodes of 8 kids under a root. */
function skiaPdf(pages: number, extra = ''): Buffer {
  const objects: string[] = [];
  let id = 1;
  const leaves: number[] = [];
  for (let i = 0; i < pages; i++) {
    leaves.push(id);
    objects.push(`${id++} 0 obj\n<</Type /Page\n/Resources <<>>\n/MediaBox [0 0 594.95996 841.91998]\n/Parent 999 0 R>>\nendobj`);
    objects.push(`${id++} 0 obj\n<</Filter /FlateDecode\n/Length 12>> stream\n\x00\x9c\xff binary\nendstream\nendobj`);
  }
  let level = leaves.map((leaf) => ({ id: leaf, count: 1 }));
  while (level.length > 1) {
    const next: { id: number; count: number }[] = [];
    for (let i = 0; i < level.length; i += 8) {
      const kids = level.slice(i, i + 8);
      const count = kids.reduce((sum, kid) => sum + kid.count, 0);
      objects.push(`${id} 0 obj\n<</Type /Pages\n/Count ${count}\n/Kids [${kids.map((k) => `${k.id} 0 R`).join(' ')}]\n/Parent 999 0 R>>\nendobj`);
      next.push({ id: id++, count });
    }
    level = next;
  }
  if (pages <= 1) objects.push(`${id} 0 obj\n<</Type /Pages\n/Count ${pages}\n/Kids [${leaves.map((l) => `${l} 0 R`).join(' ')}]>>\nendobj`);
  return Buffer.from(`%PDF-1.4\n%\xe2\xe3\xcf\xd3\n${objects.join('\n')}\n${extra}\ntrailer\n<</Size ${id + 1}>>\n%%EOF`, 'latin1');
}

describe('countPdfPages reads the page tree', () => {
  for (const pages of [1, 3, 8, 9, 40, 300, 1001]) {
    test(`${pages} pages`, () => assert.equal(countPdfPages(skiaPdf(pages)), pages));
  }

  test('spacing and line breaks as the PDF syntax allows them', () => {
    const pdf = Buffer.from('%PDF-1.4\n4 0 obj<</Type/Pages/Kids[1 0 R]/Count   1200>>endobj\n1 0 obj <</Type /Page /Parent 4 0 R>> endobj', 'latin1');
    assert.equal(countPdfPages(pdf), 1200);
  });

  test('/Type /Page leaves and /Outlines counts are not the page count', () => {
    const outline = '90 0 obj\n<</Type /Outlines /Count 5000>>\nendobj';
    assert.equal(countPdfPages(skiaPdf(3, outline)), 3);
  });

  test('a title spelling a small page tree cannot hide pages (the largest count wins)', () => {
    const info = '91 0 obj\n<</Title (/Type /Pages /Count 1) /Producer (Skia/PDF m120)>>\nendobj';
    assert.equal(countPdfPages(skiaPdf(40, info)), 40);
  });

  test('bytes smuggled in a stream (a JPEG passed through) cannot lower the count', () => {
    const jpeg = '92 0 obj\n<</Type /XObject /Subtype /Image /Length 60>> stream\n\xff\xd8 7 0 obj <</Type /Pages /Count 2>> endobj \xff\xd9\nendstream\nendobj';
    assert.equal(countPdfPages(skiaPdf(300, jpeg)), 300);
  });

  test('a tree whose nodes lost their counts falls back to counting leaves', () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Page>> endobj\n2 0 obj <</Type /Page>> endobj\n3 0 obj <</Type /Pages /Kids [1 0 R 2 0 R]>> endobj', 'latin1');
    assert.equal(countPdfPages(pdf), 2);
  });

  test('no page tree at all: undefined, never a guess', () => {
    assert.equal(countPdfPages(Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n%%EOF')), undefined);
    assert.equal(countPdfPages(Buffer.from('not a pdf')), undefined);
    assert.equal(countPdfPages(Buffer.alloc(0)), undefined);
  });
});
