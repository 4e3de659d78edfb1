/**
 * src/core/einvoice/off-thread.ts: an e-invoice checked and written on a worker thread gives the
 * same XML as on the main thread, refuses a bad model with the same error, and leaves the event
 * loop free meanwhile (issue 41, case 4: a large invoice held the service's loop for minutes).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import { prepareEInvoice, writeEInvoiceXml, type EInvoice } from '../../../../src/core/einvoice/index.js';
import { EINVOICE_LIMITS } from '../../../../src/core/einvoice/rules.js';
import { stopEInvoiceWorker, writeEInvoiceOffThread } from '../../../../src/core/einvoice/off-thread.js';

const example = (): EInvoice => JSON.parse(fs.readFileSync(new URL('../../../fixtures/einvoice/models/example-invoice.json', import.meta.url), 'utf8'));
after(() => stopEInvoiceWorker());

test('the same XML as written on the main thread, in CII and UBL', async () => {
  for (const syntax of ['cii', 'ubl'] as const) {
    const written = await writeEInvoiceOffThread(example(), 'en16931', syntax, 'The test model');
    assert.equal(written.xml, writeEInvoiceXml(prepareEInvoice(example(), 'en16931'), 'en16931', syntax));
    assert.equal(written.calculated.totals.grandTotal, 34230.78);
  }
});

test('a model that breaks a rule: INVALID_INPUT naming the rule, with every violation in the details, as on the main thread', async () => {
  const model = example();
  model.totals = { ...model.totals, grandTotal: 1 };
  await assert.rejects(writeEInvoiceOffThread(model, 'en16931', 'cii', 'The einvoice of test.tsx'), (error: { code?: string; message: string; details?: string }) => {
    assert.equal(error.code, 'INVALID_INPUT');
    assert.match(error.message, /^The einvoice of test\.tsx breaks BR-CO-15/);
    assert.match(error.details ?? '', /\[BR-CO-15\] BT-112 totals\.grandTotal/);
    return true;
  });
  // The worker lives on after a refusal.
  assert.match((await writeEInvoiceOffThread(example(), 'en16931', 'cii', 'again')).xml, /CrossIndustryInvoice/);
});

test('a model that is not plain data (a function inside): INVALID_INPUT, and the next invoice is written', async () => {
  const model = { ...example(), hook: () => 1 };
  await assert.rejects(writeEInvoiceOffThread(model, 'en16931', 'cii', 'The einvoice of test.tsx'), { code: 'INVALID_INPUT', message: /The einvoice of test\.tsx is not plain data/ });
  assert.match((await writeEInvoiceOffThread(example(), 'en16931', 'cii', 'again')).xml, /CrossIndustryInvoice/);
});

test('the event loop keeps turning while the largest allowed invoice is written', async () => {
  const model = example();
  model.lines = Array.from({ length: EINVOICE_LIMITS.lines }, () => structuredClone(example().lines[0]!));
  delete model.totals;
  let turns = 0;
  const ticker = setInterval(() => turns++, 5);
  try {
    const written = await writeEInvoiceOffThread(model, 'en16931', 'cii', 'The large model');
    assert.equal(written.xml.match(/<ram:IncludedSupplyChainTradeLineItem>/g)?.length, EINVOICE_LIMITS.lines);
  } finally {
    clearInterval(ticker);
  }
  // Written on this thread, the loop would not turn once until the XML is done (about 1.5 s of CPU).
  assert.ok(turns >= 3, `the loop turned ${turns} times while the worker wrote 10,000 lines`);
});
