/**
 * Bookmarks, tags and PDF/UA from the installed CLI (issue 38), on a 30-page report with three
 * heading levels (test/fixtures/accessibility/Report.tsx): every h1-h3 is a bookmark, nested
 * as the headings are, opening the page pdftotext finds the heading on; data-outline renames one
 * and leaves one out; --no-outline gives none; the PDF is tagged with /Lang by default; with
 * --pdfua the XMP says pdfuaid:part 1, every link annotation has /Contents, figures carry their
 * alt text, and no header or footer text is in the structure tree.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { flatOutline, pdfFigureAlts, pdfLinks, pdfOutline, pdfXmp, type OutlineEntry } from '../helpers/pdf-accessibility.js';
import { pdfInfoFields, pdfStructure } from '../helpers/pdf-metadata.js';
import { pdfObjects } from '../helpers/qpdf.js';

const REPORT = path.join(INPUTS, 'test', 'fixtures', 'accessibility', 'Report.tsx');
const RENAMED = { heading: 'Section 3.2: results of the quarter, region by region, with notes', outline: 'Quarterly results' };
const LEFT_OUT = 'Part 4.1.2';
const FURNITURE = /HEADER-FURNITURE|FOOTER-FURNITURE|RUNNING-BAND-FURNITURE|Page \d+ of \d+/;

/** The outline the fixture's headings make: chapters, their sections, their parts, as data-outline changes them. */
function expectedOutline(): { title: string; heading: string; kids: ReturnType<typeof expectedOutline> }[] {
  return Array.from({ length: 5 }, (_, c) => ({
    title: `Chapter ${c + 1}`,
    heading: `Chapter ${c + 1}`,
    kids: Array.from({ length: 3 }, (_, s) => {
      const section = `Section ${c + 1}.${s + 1}`;
      const renamed = section === 'Section 3.2';
      return {
        title: renamed ? RENAMED.outline : section,
        heading: renamed ? RENAMED.heading : section,
        kids: Array.from({ length: 2 }, (_, p) => `Part ${c + 1}.${s + 1}.${p + 1}`)
          .filter((part) => part !== LEFT_OUT)
          .map((part) => ({ title: part, heading: part, kids: [] })),
      };
    }),
  }));
}

const shape = (list: OutlineEntry[]): unknown => list.map((entry) => ({ title: entry.title, kids: shape(entry.kids) }));
const squeezed = (text: string) => text.replace(/\s+/g, '');

const outDir = tempDir();
async function render(name: string, ...flags: string[]): Promise<Buffer> {
  const file = path.join(outDir, `${name}.pdf`);
  const result = await runCli(['render', REPORT, '-o', file, ...flags], { timeoutMs: 120_000 });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(file);
}

describe('bookmarks, tags and PDF/UA (issue 38)', { timeout: 400_000 }, () => {
  let plain: Buffer;
  let pdfua: Buffer;
  before(async () => {
    [plain, pdfua] = await Promise.all([render('default'), render('pdfua', '--pdfua')]);
  });

  test('by default every h1-h3 is a bookmark, nested as the headings are, data-outline applied', () => {
    const outline = pdfOutline(plain);
    assert.deepEqual(shape(outline), shape(expectedOutline() as unknown as OutlineEntry[]));
    assert.equal(flatOutline(outline).length, 5 + 15 + 29);
  });

  test("each bookmark opens the page pdftotext finds its heading on", () => {
    assert.equal(pdfInfoFields(plain).Pages, '30');
    const expected = flatOutline(expectedOutline() as unknown as OutlineEntry[]);
    const actual = flatOutline(pdfOutline(plain));
    actual.forEach((entry, i) => {
      const heading = (expected[i] as unknown as { heading: string }).heading;
      assert.ok(entry.page >= 1 && entry.page <= 30, `${entry.title}: page ${entry.page}`);
      assert.ok(squeezed(pdfText(plain, entry.page)).includes(squeezed(heading)), `"${heading}" is on page ${entry.page}, where "${entry.title}" opens`);
    });
    // One part to a page: part N of the document opens page N.
    const parts = actual.filter((entry) => entry.depth === 2);
    assert.deepEqual(parts.map((entry) => entry.page), Array.from({ length: 30 }, (_, i) => i + 1).filter((page) => page !== 20));
  });

  test('--no-outline gives no outline; --no-tagged neither tags nor outline; --no-tagged --outline is refused', async () => {
    const [none, untagged] = await Promise.all([render('no-outline', '--no-outline'), render('untagged', '--no-tagged')]);
    assert.deepEqual(pdfOutline(none), []);
    assert.equal(pdfObjects(none).catalog['/Outlines'], undefined);
    assert.equal(pdfInfoFields(none).Tagged, 'yes');
    assert.deepEqual(pdfOutline(untagged), []);
    assert.equal(pdfInfoFields(untagged).Tagged, 'no');
    const refused = await runCli(['render', REPORT, '-o', path.join(outDir, 'x.pdf'), '--no-tagged', '--outline']);
    assert.equal(refused.code, 2, refused.describe());
    assert.match(refused.stderr, /Bookmarks \(outline\) are read from the PDF's tags.*\[USAGE\]/s);
  });

  test('tagged by default, the catalog naming the language', () => {
    assert.equal(pdfInfoFields(plain).Tagged, 'yes');
    assert.equal(pdfObjects(plain).catalog['/Lang'], 'u:en-GB');
    assert.doesNotMatch(pdfXmp(plain), /pdfuaid/);
  });

  test('--pdfua: pdfuaid:part 1 and dc:title in XMP, DisplayDocTitle, /Lang, the same outline', () => {
    const xmp = pdfXmp(pdfua);
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.match(xmp, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Annual report<\/rdf:li>/);
    const { catalog, resolve } = pdfObjects(pdfua);
    assert.equal(catalog['/Lang'], 'u:en-GB');
    assert.equal((resolve(catalog['/ViewerPreferences']) as Record<string, unknown>)['/DisplayDocTitle'], true);
    assert.deepEqual(pdfOutline(pdfua), pdfOutline(plain));
  });

  test('--pdfua: every link annotation has /Contents, the text of its link', () => {
    const links = pdfLinks(pdfua);
    assert.ok(links.length >= 60, `${links.length} links`);
    for (const link of links) {
      assert.equal(link.contents, link.target.startsWith('http') ? 'the published reports' : 'the first chapter', JSON.stringify(link));
    }
    assert.ok(pdfLinks(plain).every((link) => link.contents === undefined), 'only PDF/UA adds them');
  });

  test('--pdfua: each <img alt> is a Figure with its alt; no header or footer text in the structure tree', () => {
    assert.deepEqual(pdfFigureAlts(pdfua), ['Figure 1: a blue square', 'Figure 2: a red square', 'Figure 3: a blue square', 'Figure 4: a red square', 'Figure 5: a blue square']);
    const tree = pdfStructure(pdfua);
    assert.equal((tree.match(/^\s*Figure\b/gm) ?? []).length, 5, tree.slice(0, 2000));
    assert.match(tree, /"Part 1\.1\.1"/);
    assert.doesNotMatch(tree, FURNITURE);
    // The furniture is printed all the same: as artifacts.
    assert.match(pdfText(pdfua, 7), /HEADER-FURNITURE[^]*RUNNING-BAND-FURNITURE[^]*FOOTER-FURNITURE/);
  });

  test('--pdfua without a title is refused, saying how to give one', async () => {
    const html = path.join(outDir, 'untitled.html');
    fs.writeFileSync(html, '<html lang="en"><body><h1>No title here</h1></body></html>');
    const refused = await runCli(['generate', '--html', html, '-o', path.join(outDir, 'untitled.pdf'), '--pdfua']);
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /A PDF\/UA document needs a title.*--title.*<title>.*\[INVALID_INPUT\]/s);
    const titled = await runCli(['generate', '--html', html, '-o', path.join(outDir, 'titled.pdf'), '--pdfua', '--title', 'Given']);
    assert.equal(titled.code, 0, titled.describe());
    assert.match(pdfXmp(fs.readFileSync(path.join(outDir, 'titled.pdf'))), /<pdfuaid:part>1</);
  });

  test('--pdfua with --pdfa 3b: one XMP with both identifications and the pdfuaid extension schema', async () => {
    const both = await render('pdfua-pdfa', '--pdfua', '--pdfa', '3b');
    const xmp = pdfXmp(both);
    assert.match(xmp, /<pdfaid:part>3<\/pdfaid:part>/);
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.match(xmp, /<pdfaSchema:prefix>pdfuaid<\/pdfaSchema:prefix>/);
    assert.equal((xmp.match(/<x:xmpmeta/g) ?? []).length, 1);
    assert.equal(pdfLinks(both).filter((link) => link.contents === undefined).length, 0);
    assert.deepEqual(shape(pdfOutline(both)), shape(pdfOutline(plain)));
  });
});
