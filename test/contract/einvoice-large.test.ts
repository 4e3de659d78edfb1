/**
 * Issue 41, case 4: one e-invoice request froze the service. 100,000 lines (6 MB, under the body
 * limit) to POST /api/documents/{id}/einvoice got no answer for 127 s and /healthz timed out
 * meanwhile: the rules were quadratic and ran, with the XML writing, on the event loop. Now a
 * model is bounded (10,000 lines: IMPRINT-LIMIT, 400) and checked and written on a worker thread,
 * so /healthz answers within a second all along, for the largest allowed invoice too.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { EXAMPLES } from '../helpers/cli.js';
import { describeReply, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let key: string;
const invoiceProps = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'invoice', 'props.json'), 'utf8'));
/** `n` short lines: 100,000 of them are about 6 MB of JSON, under the 10 MiB body limit. */
const withLines = (n: number) => ({ ...invoiceProps, items: Array.from({ length: n }, (_, i) => ({ description: `L${i}`, quantity: 1, unit: 'h', unitPrice: 1 })) });

before(async () => {
  service = await startTestService();
  ({ key } = await service.team('acme'));
  const { artifact } = await bundleTemplate(path.join(EXAMPLES, 'invoice', 'Invoice.tsx'));
  const published = await service.call('POST', '/api/templates', { key, body: { id: 'invoice', artifact } });
  assert.equal(published.status, 201, describeReply(published));
});
after(() => service?.close());

/**
 * `/healthz` asked every 100 ms while `work` runs; the slowest answer's time. A health check that
 * takes over a second is what an orchestrator counts as a dead service.
 */
async function slowestHealthWhile<T>(work: Promise<T>): Promise<{ value: T; slowestMs: number; checks: number }> {
  let done = false;
  let slowestMs = 0;
  let checks = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const answer = await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(30_000) });
      await answer.arrayBuffer();
      assert.equal(answer.status, 200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      checks++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    return { value: await work, slowestMs, checks };
  } finally {
    done = true;
    await poll;
  }
}

test('100,000 lines: 400 IMPRINT-LIMIT naming the lines and the limit, and /healthz answers within 1 s meanwhile', { timeout: 180_000 }, async () => {
  const body = { props: withLines(100_000) };
  assert.ok(JSON.stringify(body).length < 10 * 1024 * 1024, 'under the body limit');
  const { value: reply, slowestMs, checks } = await slowestHealthWhile(service.call('POST', '/api/documents/invoice/einvoice', { key, body }));
  assert.equal(reply.status, 400, describeReply(reply));
  assert.equal(reply.json().code, 'INVALID_INPUT');
  assert.match(reply.json().error, /IMPRINT-LIMIT \(lines\): lines has 100,000 lines, more than the 10,000/);
  assert.ok(checks >= 1 && slowestMs < 1000, `/healthz's slowest answer took ${slowestMs.toFixed(0)} ms (${checks} checks)`);
});

test('10,000 lines, the most allowed: the XML with every line, and /healthz answers within 1 s while it is written', { timeout: 180_000 }, async () => {
  const { value: reply, slowestMs, checks } = await slowestHealthWhile(service.call('POST', '/api/documents/invoice/einvoice', { key, body: { props: withLines(10_000) } }));
  assert.equal(reply.status, 200, describeReply(reply));
  assert.equal(reply.text().match(/<ram:IncludedSupplyChainTradeLineItem>/g)?.length, 10_000);
  assert.ok(checks >= 1 && slowestMs < 1000, `/healthz's slowest answer took ${slowestMs.toFixed(0)} ms (${checks} checks)`);
});
