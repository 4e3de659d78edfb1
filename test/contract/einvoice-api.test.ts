/**
 * E-invoices through the service: POST /api/documents/{id}/einvoice answers the XML (CII or
 * UBL) that the official rules accept; A1 with `einvoice` answers a Factur-X PDF whose
 * attachment is that same XML; bad data is a 400 INVALID_INPUT naming the rule (BR-CO-10 for a
 * line amount changed) before anything is printed; A2 takes `pdfa` and refuses `einvoice`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { extractPdfInvoice } from '../../src/core/einvoice/validate/pdf-invoice.js';
import { EXAMPLES } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { assertValid, validateOfficially } from '../helpers/einvoice.js';
import { isPdf, pdfText } from '../helpers/pdf.js';
import { pdfObjects } from '../helpers/qpdf.js';
import { describeReply, FIXTURES, startTestService, type Reply, type TestService } from './helpers/service.js';

let service: TestService;
let key: string;
const invoiceProps = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));
const stated = {
  number: 'RE-2026-0001',
  lines: [
    { name: 'Entwicklung', hours: 12.5, rate: 96, amount: 1200 },
    { name: 'Beratung', hours: 3, rate: 120, amount: 360 },
  ],
  subtotal: 1560,
  tax: 296.4,
  total: 1856.4,
};

const post = (url: string, body: unknown) => service.call('POST', url, { key, body });
function expectInvalid(reply: Reply, pattern: RegExp) {
  assert.equal(reply.status, 400, describeReply(reply));
  assert.equal(reply.json().code, 'INVALID_INPUT', describeReply(reply));
  assert.match(reply.json().error, pattern);
}

before(async () => {
  service = await startTestService();
  ({ key } = await service.team('acme'));
  for (const [id, file] of [['invoice', path.join(EXAMPLES, 'invoice', 'Invoice.tsx')], ['stated', path.join(FIXTURES, 'StatedInvoice.tsx')]] as const) {
    const { artifact } = await bundleTemplate(file);
    const published = await post('/api/templates', { id, artifact });
    assert.equal(published.status, 201, describeReply(published));
  }
});
after(() => service?.close());

test('POST /api/documents/{id}/einvoice: XRechnung UBL for a public buyer, valid by the official rules', async () => {
  const reply = await post('/api/documents/invoice/einvoice', { props: invoiceProps, syntax: 'ubl', profile: 'xrechnung' });
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/xml/);
  const report = await validateOfficially(reply.text());
  assert.equal(report.document.profile, 'xrechnung');
  assertValid(report, 'the service\'s XRechnung UBL');
});

test('A1 with einvoice: a Factur-X PDF whose attachment is the XML the einvoice route writes; a stated-amount template renders when its amounts agree', async () => {
  const xml = await post('/api/documents/stated/einvoice', { props: stated });
  assert.equal(xml.status, 200, describeReply(xml));
  const pdf = await post('/api/documents/stated', { props: stated, einvoice: 'zugferd', einvoiceProfile: 'en16931' });
  assert.equal(pdf.status, 200, describeReply(pdf));
  assert.ok(isPdf(pdf.body));
  const found = await extractPdfInvoice(pdf.body);
  assert.equal(found.fileName, 'factur-x.xml');
  assert.equal(found.relationship, 'Alternative');
  assert.equal(found.xml, xml.text());
  assert.match(found.xml, /<ram:GrandTotalAmount>1856\.40</);
  assert.match(pdfText(pdf.body), /Total 1856\.40 EUR/);
  assertValid(await validateOfficially(found.xml), 'the embedded XML');
});

test('a model with one line total changed is refused with BR-CO-10, as XML and as PDF, before any print', async () => {
  const changed = structuredClone(stated);
  changed.lines[1]!.amount = 361; // 3 h x 120 = 360
  expectInvalid(await post('/api/documents/stated/einvoice', { props: changed }), /breaks PEPPOL-EN16931-R120 \(BT-131 lines\[1\]\.netAmount\).*Also broken: BR-CO-10/);
  changed.lines[1]!.amount = 360;
  changed.subtotal = 1561;
  expectInvalid(await post('/api/documents/stated', { props: changed, einvoice: 'factur-x' }), /breaks BR-CO-10 \(BT-106 totals\.lineTotal\): The stated BT-106 is 1561\.00, but the sum of the line net amounts \(BT-131\) is 1560\.00/);
  // Without einvoice the same props render: the check belongs to the e-invoice.
  const plain = await post('/api/documents/stated', { props: changed });
  assert.equal(plain.status, 200, describeReply(plain));
});

test('bad fields: an unknown profile or syntax, and einvoice on A2, are 400 INVALID_INPUT', async () => {
  expectInvalid(await post('/api/documents/invoice/einvoice', { props: invoiceProps, profile: 'comfort' }), /profile|must be equal to one of/);
  expectInvalid(await post('/api/documents/invoice/einvoice', { props: invoiceProps, syntax: 'edifact' }), /syntax|must be equal to one of/);
  expectInvalid(await post('/api/generate', { html: '<p>x</p>', einvoice: 'factur-x' }), /template's `einvoice` mapping/);
  expectInvalid(await post('/api/jobs', { rows: [{ html: '<p>x</p>' }], einvoice: 'factur-x' }), /template's `einvoice` mapping/);
});

test('A2 with pdfa 3b: an sRGB output intent and PDF/A-3 metadata', async () => {
  const reply = await post('/api/generate', { html: '<title>Archive</title><p>Kept</p>', pdfa: '3b' });
  assert.equal(reply.status, 200, describeReply(reply));
  const objects = pdfObjects(reply.body);
  assert.ok(objects.catalog['/OutputIntents']);
  assert.ok(objects.catalog['/Metadata']);
});

test('a job with einvoice: each row a Factur-X PDF; a row whose amounts disagree fails alone, naming BR-CO-10', async () => {
  const changed = { ...structuredClone(stated), number: 'RE-2026-0002', subtotal: 1561 };
  const submitted = await post('/api/jobs', { template: 'stated', rows: [stated, changed], einvoice: 'factur-x', einvoiceProfile: 'xrechnung' });
  assert.equal(submitted.status, 202, describeReply(submitted));
  const id = submitted.json().id as string;
  const job = await waitFor(async () => (await service.call('GET', `/api/jobs/${id}`, { key })).json(), (seen) => FINAL.includes(seen.status), `job ${id} to finish`);
  const [good, bad] = [...job.rows].sort((a: { row: number }, b: { row: number }) => a.row - b.row);
  assert.ok(good.url, JSON.stringify(job.rows));
  assert.equal(bad.code, 'INVALID_INPUT', JSON.stringify(bad));
  assert.match(bad.error, /BR-CO-10/);
  const download = await service.call('GET', new URL(good.url).pathname);
  assert.equal(download.status, 200, describeReply(download));
  const found = await extractPdfInvoice(download.body);
  assert.equal(found.fileName, 'xrechnung.xml');
  assertValid(await validateOfficially(found.xml), "the job row's XRechnung");
});
