/**
 * Factur-X / ZUGFeRD / XRechnung through the real CLI and a real Chromium: the example invoice
 * rendered with each profile is a PDF/A-3b whose attachment (pdfdetach) equals what
 * `imprint einvoice` writes and passes the official validators; bad data fails before a page
 * is printed, naming the rule; `--pdfa` works for any document; the default path is unchanged.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { EINVOICE_PROFILES } from '../../src/core/einvoice/model.js';
import { PROFILES } from '../../src/core/einvoice/profiles.js';
import { validateEInvoiceFile } from '../../src/core/einvoice/validate/validate-file.js';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { assertValid, validationTools } from '../helpers/einvoice.js';
import { pdfFonts, pdfText } from '../helpers/pdf.js';
import { pdfObjects } from '../helpers/qpdf.js';

const TEMPLATE = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const PROPS = path.join(EXAMPLES, 'invoice', 'props.json');
const work = tempDir('imprint-einvoice-');
const dataDir = path.join(work, 'data');
after(() => fs.rmSync(work, { recursive: true, force: true }));
const cli = (args: string[], stdin?: string) => runCli([...args, '--data-dir', dataDir], { timeoutMs: 240_000, cwd: work, stdin });

/** The embedded files, as poppler lists and saves them. */
function detach(pdf: string): { names: string[]; first: string } {
  const list = execFileSync('pdfdetach', ['-list', pdf]).toString();
  const names = [...list.matchAll(/^\d+: (.+)$/gm)].map((m) => m[1]!);
  const out = path.join(work, `${path.basename(pdf)}.attachment`);
  execFileSync('pdfdetach', ['-save', '1', '-o', out, pdf]);
  return { names, first: fs.readFileSync(out, 'utf8') };
}

for (const profile of EINVOICE_PROFILES) {
  test(`render --einvoice factur-x --einvoice-profile ${profile}: a PDF/A-3b whose attachment equals \`imprint einvoice\` and passes the official rules`, async () => {
    const pdf = path.join(work, `invoice-${profile}.pdf`);
    const xmlFile = path.join(work, `invoice-${profile}.xml`);
    const rendered = await cli(['render', TEMPLATE, '--props', PROPS, '--einvoice', profile === 'xrechnung' ? 'zugferd' : 'factur-x', '--einvoice-profile', profile, '-o', pdf, '--deterministic']);
    assert.equal(rendered.code, 0, rendered.describe());
    const written = await cli(['einvoice', TEMPLATE, '--props', PROPS, '--einvoice-profile', profile, '-o', xmlFile]);
    assert.equal(written.code, 0, written.describe());

    const spec = PROFILES[profile];
    const { names, first } = detach(pdf);
    assert.deepEqual(names, [spec.fileName]);
    assert.equal(first, fs.readFileSync(xmlFile, 'utf8'), 'the embedded XML is what `imprint einvoice` writes');
    // Receivers extract it by name (issue 41, case 11): poppler matches a literal /UF, not UTF-16 hex.
    const byName = path.join(work, `${profile}-by-name.xml`);
    execFileSync('pdfdetach', ['-savefile', spec.fileName, '-o', byName, pdf]);
    assert.equal(fs.readFileSync(byName, 'utf8'), first, `pdfdetach -savefile ${spec.fileName}`);

    // The catalog: /AF lists the file spec, whose AFRelationship the profile calls for; an sRGB OutputIntent; XMP.
    const bytes = fs.readFileSync(pdf);
    const objects = pdfObjects(bytes);
    const af = objects.catalog['/AF'] as string[];
    assert.equal(af.length, 1);
    const spec0 = objects.resolve(af[0]) as Record<string, unknown>;
    assert.equal(spec0['/AFRelationship'], `/${spec.relationship}`);
    const embedded = objects.resolve((spec0['/EF'] as Record<string, unknown>)['/F']) as Record<string, unknown>;
    assert.equal(embedded['/Subtype'], '/text/xml');
    const intents = objects.catalog['/OutputIntents'] as unknown[];
    const intent = objects.resolve(intents[0]) as Record<string, unknown>;
    assert.equal(intent['/S'], '/GTS_PDFA1');
    assert.equal((objects.resolve(intent['/DestOutputProfile']) as Record<string, unknown>)['/N'], 3);
    assert.equal((objects.trailer['/ID'] as unknown[]).length, 2);
    const xmp = execFileSync('pdfinfo', ['-meta', pdf]).toString();
    assert.match(xmp, /<pdfaid:part>3<\/pdfaid:part>/);
    assert.match(xmp, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
    assert.ok(xmp.includes(`<fx:ConformanceLevel>${spec.conformanceLevel}</fx:ConformanceLevel>`), xmp);
    assert.ok(xmp.includes(`<fx:DocumentFileName>${spec.fileName}</fx:DocumentFileName>`));
    assert.match(xmp, /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/);

    // Every font embedded; the XML's grand total is the one on the page.
    const fonts = pdfFonts(bytes).split('\n').slice(2).filter(Boolean);
    assert.ok(fonts.length > 0 && fonts.every((line) => /\byes\s+yes\s+yes\b/.test(line)), pdfFonts(bytes));
    const grand = /<ram:GrandTotalAmount>([\d.]+)</.exec(first)?.[1];
    assert.equal(grand, '34230.78');
    assert.match(pdfText(bytes), /€34,230\.78/);

    assertValid(await validateEInvoiceFile(bytes, validationTools()), `the ${profile} PDF`);
  });
}

test('check --einvoice: a valid PDF exits 0; an XML with a changed total exits 1 listing BR-CO-15', async () => {
  const ok = await cli(['check', '--einvoice', path.join(work, 'invoice-en16931.pdf')]);
  assert.equal(ok.code, 0, ok.describe());
  assert.match(ok.stdout.toString(), /✔ EN 16931 CII rules/);
  const xml = fs.readFileSync(path.join(work, 'invoice-en16931.xml'), 'utf8').replace('<ram:GrandTotalAmount>34230.78<', '<ram:GrandTotalAmount>34230.00<');
  const bad = await cli(['check', '--einvoice', '-', '--json'], xml);
  assert.equal(bad.code, 1, bad.describe());
  const report = JSON.parse(bad.stdout.toString());
  assert.equal(report.valid, false);
  assert.ok(report.findings.some((f: { rule: string; severity: string }) => f.rule === 'BR-CO-15' && f.severity === 'fatal'), bad.stdout.toString());
  assert.match(bad.stderr, /BR-CO-15/);
});

test('check --einvoice after the schema refuses a document: the rules it did not run are listed as not run, never as passed (issue 41, case 12)', async () => {
  // An element the schema does not allow where it stands: the XSD step fails, the rule steps are skipped.
  const xml = fs.readFileSync(path.join(work, 'invoice-en16931.xml'), 'utf8').replace('<ram:GrandTotalAmount>', '<ram:NotAnElement>1</ram:NotAnElement><ram:GrandTotalAmount>');
  const checked = await cli(['check', '--einvoice', '-'], xml);
  assert.equal(checked.code, 1, checked.describe());
  const out = checked.stdout.toString();
  assert.match(out, /✖ Factur-X EN 16931 schema/);
  assert.match(out, /- Factur-X EN 16931 rules \(not run: the schema refused the document\)/);
  assert.doesNotMatch(out, /✔ (Factur-X EN 16931|EN 16931 CII) rules/);
  const json = await cli(['check', '--einvoice', '-', '--json'], xml);
  const report = JSON.parse(json.stdout.toString());
  assert.deepEqual(report.steps, ['Factur-X EN 16931 schema']);
  assert.ok(report.skipped.includes('Factur-X EN 16931 rules'), JSON.stringify(report.skipped));
});

test('UBL for a public buyer: imprint einvoice --syntax ubl --einvoice-profile xrechnung passes the XRechnung rules', async () => {
  const out = await cli(['einvoice', TEMPLATE, '--props', PROPS, '--syntax', 'ubl', '--einvoice-profile', 'xrechnung']);
  assert.equal(out.code, 0, out.describe());
  const xml = out.stdout.toString();
  assert.match(xml, /<cbc:CustomizationID>urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.0<\/cbc:CustomizationID>/);
  const checked = await cli(['check', '--einvoice', '-'], xml);
  assert.equal(checked.code, 0, checked.describe());
  assert.match(checked.stdout.toString(), /✔ XRechnung UBL rules/);
});

test('bad data fails before a page is printed, naming the term and rule, exit 1 and no file', async () => {
  const props = JSON.parse(fs.readFileSync(PROPS, 'utf8'));
  const cases: [string, (p: typeof props) => void, string, RegExp][] = [
    ['novat', (p) => delete p.seller.taxId, 'en16931', /breaks BR-S-02 \(BT-31 seller\.vatId\)/],
    ['nounit', (p) => (p.items[1].unit = 'furlong'), 'en16931', /breaks BR-23 \(BT-130 lines\[1\]\.unitCode\)/],
    ['noref', (p) => delete p.buyerReference, 'xrechnung', /breaks BR-DE-15 \(BT-10 buyerReference\)/],
  ];
  for (const [name, change, profile, message] of cases) {
    const copy = structuredClone(props);
    change(copy);
    const file = path.join(work, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(copy));
    const out = path.join(work, `${name}.pdf`);
    const result = await cli(['render', TEMPLATE, '--props', file, '--einvoice', 'factur-x', '--einvoice-profile', profile, '-o', out]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, message);
    assert.equal(fs.existsSync(out), false);
  }
});

test('--pdfa 2b on generate: PDF/A-2b metadata and output intent, no attachment; the same bytes twice; default output has neither', async () => {
  const html = path.join(work, 'page.html');
  fs.writeFileSync(html, '<!doctype html><title>Archive</title><h1>Kept for ten years</h1><a href="https://example.org">a link</a>');
  const first = path.join(work, 'a.pdf');
  const second = path.join(work, 'b.pdf');
  const plain = path.join(work, 'plain.pdf');
  for (const [out, extra] of [[first, ['--pdfa', '2b']], [second, ['--pdfa', '2b']], [plain, []]] as const) {
    const result = await cli(['generate', '--html', html, '--deterministic', '-o', out, ...extra]);
    assert.equal(result.code, 0, result.describe());
  }
  assert.ok(fs.readFileSync(first).equals(fs.readFileSync(second)), 'a deterministic PDF/A is byte-identical');
  const objects = pdfObjects(fs.readFileSync(first));
  assert.ok(objects.catalog['/OutputIntents']);
  assert.equal(objects.catalog['/AF'], undefined);
  assert.match(execFileSync('pdfinfo', ['-meta', first]).toString(), /<pdfaid:part>2<\/pdfaid:part>/);
  // Chromium's link annotation gets the Print flag PDF/A asks for.
  const page = objects.resolve((objects.resolve((objects.resolve(objects.catalog['/Pages']) as Record<string, unknown[]>)['/Kids']![0]) as Record<string, unknown>)) as Record<string, unknown>;
  const annots = (objects.resolve(page['/Annots']) as unknown[]).map((a) => objects.resolve(a) as Record<string, unknown>);
  assert.ok(annots.length > 0 && annots.every((a) => a['/F'] === 4), JSON.stringify(annots));
  const defaults = pdfObjects(fs.readFileSync(plain));
  assert.equal(defaults.catalog['/OutputIntents'], undefined);
  assert.equal(defaults.catalog['/Metadata'], undefined);
});

test('usage errors: an unknown profile, pdfa 2b with an e-invoice, --einvoice on generate', async () => {
  const profile = await cli(['render', TEMPLATE, '--einvoice', 'factur-x', '--einvoice-profile', 'comfort', '-o', path.join(work, 'x.pdf')]);
  assert.equal(profile.code, 2, profile.describe());
  assert.match(profile.stderr, /use one of minimum, basic-wl, basic, en16931, extended, xrechnung/);
  const level = await cli(['render', TEMPLATE, '--einvoice', 'factur-x', '--pdfa', '2b', '-o', path.join(work, 'x.pdf')]);
  assert.equal(level.code, 2, level.describe());
  assert.match(level.stderr, /PDF\/A-3b/);
  const generate = await cli(['generate', '--html', '-', '--einvoice', 'factur-x'], '<p>x</p>');
  assert.equal(generate.code, 2, generate.describe());
});
