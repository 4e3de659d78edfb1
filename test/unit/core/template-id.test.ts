import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseTemplateId, findStaticDocumentId, isValidTemplateId, kebabCaseFromFileName } from '../../../src/core/template-id.js';

describe('template id rules', () => {
  for (const id of ['invoice', 'Invoice_2', 'a.b-c', 'x'.repeat(128), '0', '3f2a8c1e-8a4b-4c1e-9d1f-2b3c4d5e6f70']) {
    test(`accepts ${id.slice(0, 40)}`, () => assert.equal(isValidTemplateId(id), true));
  }
  for (const id of ['', 'x'.repeat(129), 'a..b', '..', '.hidden', 'a/b', 'a b', 'ünïcode', 'a\\b', 'semi;colon']) {
    test(`rejects ${JSON.stringify(id.slice(0, 40))}`, () => assert.equal(isValidTemplateId(id), false));
  }
});

describe('kebabCaseFromFileName', () => {
  const cases: [string, string][] = [
    ['Invoice.tsx', 'invoice'],
    ['templates/InvoiceTemplate.tsx', 'invoice-template'],
    ['my_report.v2.tsx', 'my-report-v2'],
    ['PDFReport.tsx', 'pdf-report'],
    ['monthly statement.jsx', 'monthly-statement'],
  ];
  for (const [file, id] of cases) test(`${file} -> ${id}`, () => assert.equal(kebabCaseFromFileName(file), id));
});

describe('findStaticDocumentId (read from source, never run)', () => {
  test('an assignment to the component', () => assert.equal(findStaticDocumentId("Invoice.documentId = 'invoice-2025';"), 'invoice-2025'));
  test('a class static', () => assert.equal(findStaticDocumentId('class X { static documentId = "x1" }'), 'x1'));
  test('an exported constant', () => assert.equal(findStaticDocumentId('export const documentId: string = `rep`;'), 'rep'));
  test('none', () => assert.equal(findStaticDocumentId('export default function A() { return null }'), undefined));
});

describe('chooseTemplateId: --id, else documentId, else the file name', () => {
  const source = "Invoice.documentId = 'from-source';";
  test('--id wins', () => assert.equal(chooseTemplateId({ explicitId: 'given', source, file: 'Invoice.tsx' }), 'given'));
  test('then the static documentId', () => assert.equal(chooseTemplateId({ source, file: 'Invoice.tsx' }), 'from-source'));
  test('then the file name', () => assert.equal(chooseTemplateId({ source: '', file: 'MyInvoice.tsx' }), 'my-invoice'));
  test('an invalid --id is refused with the rules', () => {
    assert.throws(() => chooseTemplateId({ explicitId: '../etc', source, file: 'a.tsx' }), /letters, digits/);
  });
});
