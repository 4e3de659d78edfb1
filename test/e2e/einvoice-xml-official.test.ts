/**
 * The XML Imprint writes, checked by the official artefacts and not by our reading of them: the
 * Factur-X per-profile XSD and Schematron, CEN's EN 16931 rules (CII and UBL), KoSIT's
 * XRechnung rules and OpenPEPPOL's BIS Billing rules, run with xmllint and Saxon-HE.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { EINVOICE_PROFILES, prepareEInvoice, writeEInvoiceXml, type EInvoice } from '../../src/core/einvoice/index.js';
import { assertValid, validateOfficially } from '../helpers/einvoice.js';

const example = (): EInvoice => JSON.parse(fs.readFileSync(new URL('../fixtures/einvoice/models/example-invoice.json', import.meta.url), 'utf8'));

for (const profile of EINVOICE_PROFILES) {
  test(`CII, profile ${profile}: the example invoice passes its schema and every rule set`, async () => {
    const xml = writeEInvoiceXml(prepareEInvoice(example(), profile), profile, 'cii');
    const report = await validateOfficially(xml);
    assert.equal(report.document.syntax, 'cii');
    assert.equal(report.document.profile, profile);
    assertValid(report, `CII ${profile}`);
    // The validators ran: the schema, then at least one Schematron.
    assert.ok(report.steps.length >= 2, report.steps.join(', '));
  });
}

test('CII with allowances, charges, two VAT rates and an exempt line passes EN 16931 and Factur-X EN 16931', async () => {
  const model = example();
  delete model.totals;
  model.lines = [
    { name: 'Book', quantity: 3, unitCode: 'C62', netPrice: 12.5, vat: { category: 'S', rate: 9 }, allowances: [{ amount: 2.5, reason: 'Damaged cover', reasonCode: '95' }] },
    { name: 'Consulting', quantity: 1.5, unitCode: 'HUR', netPrice: 100, vat: { category: 'S', rate: 21 }, charges: [{ amount: 5, reason: 'Express', reasonCode: 'FC' }] },
    { name: 'Training', quantity: 1, unitCode: 'DAY', netPrice: 400, vat: { category: 'E', rate: 0 } },
  ];
  model.vatExemptionReasons = { E: 'Exempt training (Art. 132 VAT Directive)' };
  model.allowances = [{ amount: 10, reason: 'Loyalty discount', reasonCode: '95', vat: { category: 'S', rate: 21 } }];
  model.charges = [{ amount: 4.9, reason: 'Shipping', reasonCode: 'FC', vat: { category: 'S', rate: 9 } }];
  model.period = { start: '2025-10-01', end: '2025-10-31' };
  const xml = writeEInvoiceXml(prepareEInvoice(model, 'en16931'), 'en16931', 'cii');
  assertValid(await validateOfficially(xml), 'CII en16931 with allowances');
});

test('a CII whose grand total was changed after writing fails the official rules with BR-CO-15', async () => {
  const xml = writeEInvoiceXml(prepareEInvoice(example(), 'en16931'), 'en16931', 'cii').replace('<ram:GrandTotalAmount>34230.78<', '<ram:GrandTotalAmount>34230.79<');
  const report = await validateOfficially(xml);
  assert.equal(report.valid, false);
  assert.ok(report.findings.some((f) => f.rule === 'BR-CO-15' && f.severity === 'fatal'), JSON.stringify(report.findings, null, 1));
});

for (const profile of ['en16931', 'xrechnung'] as const) {
  test(`UBL, profile ${profile}: the example invoice passes the UBL 2.1 schema, EN 16931 and ${profile === 'xrechnung' ? "XRechnung's" : "Peppol BIS Billing 3.0's"} rules`, async () => {
    const xml = writeEInvoiceXml(prepareEInvoice(example(), profile), profile, 'ubl');
    const report = await validateOfficially(xml);
    assert.equal(report.document.syntax, 'ubl');
    assert.equal(report.document.profile, profile);
    assert.deepEqual(report.steps, ['UBL 2.1 Invoice schema', 'EN 16931 UBL rules', profile === 'xrechnung' ? 'XRechnung UBL rules' : 'Peppol BIS Billing 3.0 rules']);
    assertValid(report, `UBL ${profile}`);
  });
}

test('UBL has no Factur-X profile: asking for one is a usage error that says which to use', () => {
  assert.throws(() => writeEInvoiceXml(prepareEInvoice(example(), 'basic'), 'basic', 'ubl'), /UBL has no basic profile.*en16931 \(Peppol BIS Billing 3\.0\) or xrechnung/);
});
