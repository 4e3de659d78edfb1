import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { buildXmp, type XmpFields } from '../../../../src/core/pdf/xmp.js';

const base: XmpFields = { title: 'Report <1>', created: new Date(Date.UTC(2024, 0, 2)), modified: new Date(Date.UTC(2024, 0, 2)), documentId: '00000000-0000-0000-0000-000000000000' };
/** xmllint reads the packet as XML (it fails the test otherwise). */
const wellFormed = (xml: string) => execFileSync('xmllint', ['--noout', '-'], { input: xml.replace(/^<\?xpacket[^>]*\?>/, '').replace(/<\?xpacket[^>]*\?>$/, '') });

describe('the XMP packet: PDF/A, PDF/UA, both', () => {
  test('PDF/UA alone: pdfuaid:part 1 and dc:title, no PDF/A identification or extension schema', () => {
    const xmp = buildXmp({ ...base, pdfua: true });
    wellFormed(xmp);
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.match(xmp, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Report &lt;1&gt;<\/rdf:li>/);
    assert.doesNotMatch(xmp, /pdfaid|pdfaExtension/);
  });
  test('PDF/A alone is as before: no pdfuaid', () => {
    const xmp = buildXmp({ ...base, part: 2 });
    wellFormed(xmp);
    assert.match(xmp, /<pdfaid:part>2<\/pdfaid:part>/);
    assert.doesNotMatch(xmp, /pdfuaid|pdfaExtension/);
  });
  test('PDF/A-3 with PDF/UA and Factur-X: both identifications, one extension bag describing pdfuaid and fx', () => {
    const xmp = buildXmp({ ...base, part: 3, pdfua: true, facturX: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' } });
    wellFormed(xmp);
    assert.match(xmp, /<pdfaid:part>3<\/pdfaid:part>/);
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.equal((xmp.match(/<pdfaExtension:schemas>/g) ?? []).length, 1);
    assert.match(xmp, /<pdfaSchema:prefix>pdfuaid<\/pdfaSchema:prefix>[^]*<pdfaSchema:prefix>fx<\/pdfaSchema:prefix>/);
    assert.match(xmp, /<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
  });
});
