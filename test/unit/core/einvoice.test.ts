/**
 * The invoice model: totals by EN 16931's rules, and the checks that refuse a model before any
 * XML is written or page printed, each naming its rule and business term.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { calculateInvoice, checkEInvoice, prepareEInvoice, type EInvoice } from '../../../src/core/einvoice/index.js';
import { EINVOICE_LIMITS } from '../../../src/core/einvoice/rules.js';
import { roundAmount } from '../../../src/core/einvoice/decimal.js';

const example = (): EInvoice => JSON.parse(fs.readFileSync(new URL('../../fixtures/einvoice/models/example-invoice.json', import.meta.url), 'utf8'));
const rules = (model: unknown, profile: Parameters<typeof checkEInvoice>[1] = 'en16931') => checkEInvoice(model, profile).violations.map((v) => v.rule);

test('the example invoice computes to the totals its page prints', () => {
  const { totals, vat, lineNet } = calculateInvoice(example());
  assert.equal(lineNet[0], 2640);
  assert.deepEqual(vat, [{ category: 'S', rate: 21, basis: 28289.9, tax: 5940.88 }]);
  assert.equal(totals.lineTotal, 28289.9);
  assert.equal(totals.taxTotal, 5940.88);
  assert.equal(totals.grandTotal, 34230.78);
  assert.equal(totals.duePayable, 34230.78);
  assert.deepEqual(rules(example()), []);
  assert.deepEqual(rules(example(), 'xrechnung'), []);
});

test('amounts round half away from zero at the cent, without binary drift', () => {
  assert.equal(roundAmount(1.005), 1.01);
  assert.equal(roundAmount(-1.005), -1.01);
  assert.equal(roundAmount(0.1 + 0.2), 0.3);
  assert.equal(roundAmount(2.675), 2.68);
});

test('allowances, charges and several VAT rates make the breakdown and totals the norm gives', () => {
  const model = example();
  model.lines = [
    { name: 'Book', quantity: 3, unitCode: 'C62', netPrice: 12.5, vat: { category: 'S', rate: 7 }, allowances: [{ amount: 2.5, reason: 'Damaged cover' }] },
    { name: 'Consulting', quantity: 1.5, unitCode: 'HUR', netPrice: 100, baseQuantity: 1, vat: { category: 'S', rate: 19 } },
  ];
  model.allowances = [{ amount: 10, reason: 'Loyalty discount', vat: { category: 'S', rate: 19 } }];
  model.charges = [{ amount: 4.9, reason: 'Shipping', vat: { category: 'S', rate: 7 } }];
  delete model.totals;
  const { totals, vat, lineNet } = calculateInvoice(model);
  assert.deepEqual(lineNet, [35, 150]);
  assert.deepEqual(vat, [
    { category: 'S', rate: 7, basis: 39.9, tax: 2.79 },
    { category: 'S', rate: 19, basis: 140, tax: 26.6 },
  ]);
  assert.deepEqual(totals, { lineTotal: 185, allowanceTotal: 10, chargeTotal: 4.9, taxBasisTotal: 179.9, taxTotal: 29.39, grandTotal: 209.29, paidAmount: 0, roundingAmount: 0, duePayable: 209.29 });
  assert.deepEqual(rules(model), []);
});

test('a model with one line total changed fails with BR-CO-10, naming the term and both amounts', () => {
  const model = example();
  model.lines[2]!.netAmount = 4620.01; // 38.5 h x 120 = 4620.00
  const found = checkEInvoice(model, 'en16931').violations;
  assert.deepEqual(found.map((v) => v.rule), ['PEPPOL-EN16931-R120', 'BR-CO-10', 'BR-CO-15', 'BR-CO-16']);
  const co10 = found.find((v) => v.rule === 'BR-CO-10')!;
  assert.equal(co10.term, 'BT-106 totals.lineTotal');
  assert.match(co10.message, /28289\.90.*28289\.91/);
  assert.throws(() => prepareEInvoice(model, 'en16931', 'The einvoice of Invoice.tsx'), (error: unknown) => {
    assert.ok(error instanceof ImprintError);
    assert.equal(error.code, 'INVALID_INPUT');
    assert.match(error.message, /^The einvoice of Invoice\.tsx breaks PEPPOL-EN16931-R120 \(BT-131 lines\[2\]\.netAmount\): .* Also broken: BR-CO-10, BR-CO-15, BR-CO-16\.$/);
    assert.match(error.details!, /\[BR-CO-10\] BT-106 totals\.lineTotal/);
    return true;
  });
});

test('a stated grand total that disagrees fails with BR-CO-15', () => {
  const model = example();
  model.totals!.grandTotal = 34230.77;
  assert.deepEqual(rules(model), ['BR-CO-15']);
});

test('missing terms are named by rule and term: seller VAT id, unit code, XRechnung buyer reference', () => {
  const noVat = example();
  delete noVat.seller.vatId;
  assert.deepEqual(checkEInvoice(noVat, 'en16931').violations.map((v) => `${v.rule} ${v.term}`), ['BR-S-02 BT-31 seller.vatId']);

  const noUnit = example() as unknown as { lines: Record<string, unknown>[] };
  delete noUnit.lines[1]!.unitCode;
  const unit = checkEInvoice(noUnit, 'en16931').violations;
  assert.deepEqual(unit.map((v) => `${v.rule} ${v.term}`), ['BR-23 BT-130 lines[1].unitCode']);
  assert.match(unit[0]!.message, /line 2 shall have a unit of measure code \(BT-130\)/);

  const noReference = example();
  delete noReference.buyerReference;
  assert.deepEqual(rules(noReference, 'en16931'), []);
  assert.deepEqual(rules(noReference, 'xrechnung'), ['BR-DE-15']);
});

test('a model of the wrong shape is refused with the path of each wrong field, before any calculation', () => {
  assert.deepEqual(rules(null), ['IMPRINT-SHAPE']);
  const model = example() as unknown as Record<string, unknown>;
  (model.lines as Record<string, unknown>[])[0]!.quantity = '24';
  model.issueDate = '03.11.2025';
  const found = checkEInvoice(model, 'en16931');
  assert.equal(found.calculated, undefined);
  assert.deepEqual(found.violations.map((v) => v.term), ['issueDate', 'lines[0].quantity']);
});

test('VAT categories: reverse charge needs the buyer VAT id and an exemption reason; standard rate needs a rate', () => {
  const model = example();
  delete model.totals;
  for (const line of model.lines) line.vat = { category: 'AE' };
  delete model.buyer.vatId;
  assert.deepEqual(rules(model), ['BR-AE-02', 'BR-AE-10']);
  const zeroRate = example();
  delete zeroRate.totals;
  zeroRate.lines[0]!.vat = { category: 'S', rate: 0 };
  assert.deepEqual(rules(zeroRate), ['BR-S-05']);
});

test('a model past the size limits is refused by IMPRINT-LIMIT naming the list, its length and the limit, without checking each entry (issue 41, case 4)', () => {
  const many = (n: number) => Array.from({ length: n }, () => structuredClone(example().lines[0]!));
  const atLimit = example();
  atLimit.lines = many(EINVOICE_LIMITS.lines);
  delete atLimit.totals;
  assert.deepEqual(rules(atLimit), [], `${EINVOICE_LIMITS.lines} lines pass`);

  const tooMany = example();
  tooMany.lines = many(100_000);
  const { violations } = checkEInvoice(tooMany, 'en16931');
  assert.deepEqual(violations.map((v) => [v.rule, v.term]), [['IMPRINT-LIMIT', 'lines']]);
  assert.match(violations[0]!.message, /lines has 100,000 lines, more than the 10,000 an e-invoice may have here; split the invoice/);

  const notes = example();
  notes.notes = Array.from({ length: EINVOICE_LIMITS.listEntries + 1 }, () => 'n');
  assert.deepEqual(rules(notes), ['IMPRINT-LIMIT']);
  const allowances = example();
  allowances.lines[0]!.allowances = Array.from({ length: EINVOICE_LIMITS.listEntries + 1 }, () => ({ amount: 0.01, reason: 'r' }));
  assert.deepEqual(checkEInvoice(allowances, 'en16931').violations.map((v) => v.term), ['lines[0].allowances']);

  const wordy = example();
  wordy.notes = ['x'.repeat(EINVOICE_LIMITS.textCharacters)];
  assert.deepEqual(checkEInvoice(wordy, 'en16931').violations.map((v) => [v.rule, v.term]), [['IMPRINT-LIMIT', 'the model']]);
});
