/**
 * <TableOfContents/>, <PageRef/> and per-section page numbers (issue 38), through the
 * installed CLI and library on a real Chromium: test/fixtures/toc/Report.tsx, 60 chapters in
 * three parts. Every printed number N is checked against the PDF itself: pdftotext -f N -l N
 * holds the heading it names; the table of contents' link annotations (qpdf --json) open the
 * pages it prints; the numbers follow the chapters when the table of contents grows from one
 * page to three; two renders give the same bytes; a document whose numbers move what they
 * number fails with PAGE_NUMBERS_UNSETTLED naming the target.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { BIN, cliWithDataDir, INPUTS, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { pdfObjects } from '../helpers/qpdf.js';
import { run } from './package-kit.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'toc');
const REPORT = path.join(FIXTURES, 'Report.tsx');
const COMMAND_MS = 180_000;
const cli = cliWithDataDir();
const out = tempDir('imprint-toc-');

interface Rendered {
  pdf: Buffer;
  /** pages[N] is the text of page N (pdftotext -layout). */
  pages: string[];
  /** The pages the table of contents fills (before the introduction's). */
  tocPages: number;
  /** Each entry of the table of contents, in order: its text and the page it prints. */
  entries: { text: string; page: number }[];
}

async function renderReport(name: string, tocPages: 1 | 3, extra: string[] = []): Promise<Buffer> {
  const file = path.join(out, `${name}.pdf`);
  const result = await cli.run(['render', REPORT, '--props', '-', '-o', file, ...extra], { stdin: JSON.stringify({ tocPages }), timeoutMs: COMMAND_MS });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(file);
}

function read(pdf: Buffer): Rendered {
  const pages = ['', ...Array.from({ length: pdfInfo(pdf).pages }, (_, i) => pdfText(pdf, i + 1))];
  const introduction = pages.findIndex((text) => /^\s*Introduction\s*$/m.test(text));
  assert.ok(introduction > 1, 'the introduction follows the table of contents');
  const entries = pages
    .slice(1, introduction)
    .flatMap((text) => text.split('\n'))
    .filter((line) => !line.includes('Quarterly report'))
    .map((line) => /^\s*(\S.*?\S)\s+(\d+)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ text: match[1], page: Number(match[2]) }));
  return { pdf, pages, tocPages: introduction - 1, entries };
}

/** Each entry's heading is on the page the entry prints. */
function assertEntriesRight(doc: Rendered) {
  // 3 parts, 60 chapters, 6 annexes.
  assert.equal(doc.entries.length, 69, doc.pages.slice(1, doc.tocPages + 1).join('\n=====\n'));
  for (const entry of doc.entries) {
    assert.ok(entry.page > doc.tocPages && entry.page < doc.pages.length, `"${entry.text}" prints page ${entry.page}`);
    assert.ok(new RegExp(`^\\s*${entry.text}\\s*$`, 'm').test(doc.pages[entry.page]), `"${entry.text}" is not on page ${entry.page}:\n${doc.pages[entry.page]}`);
  }
}

/** "See chapter 17 on page N": chapter 17's heading is on page N; the parts' likewise. */
function assertPageRefsRight(doc: Rendered) {
  const introduction = doc.pages[doc.tocPages + 1];
  const refs = [...introduction.matchAll(/See chapter (\d+) on page (\d+)\./g)];
  assert.equal(refs.length, 5, introduction);
  for (const [, chapter, page] of refs) assert.match(doc.pages[Number(page)], new RegExp(`^\\s*Chapter ${chapter} heading\\s*$`, 'm'), `chapter ${chapter} on page ${page}`);
  const parts = /The results start on page (\d+) and the methods on page (\d+)\./.exec(introduction);
  assert.ok(parts, introduction);
  assert.match(doc.pages[Number(parts[1])], /Part Three: Results/);
  assert.match(doc.pages[Number(parts[2])], /Part Two: Methods/);
}

/** The footer counts pages within each part: "Part 2, page 3 of 7", from each part's first page to the next's. */
function assertSectionNumbersRight(doc: Rendered) {
  const count = doc.pages.length - 1;
  const starts = ['Part One', 'Part Two', 'Part Three'].map((title) => doc.pages.findIndex((text, page) => page > doc.tocPages + 1 && text.includes(title)));
  for (let page = 1; page <= count; page++) {
    const part = starts.filter((start) => start <= page).length;
    const footer = /Part (\d+), page (\d+) of (\d+)/.exec(doc.pages[page]);
    if (part === 0) {
      assert.equal(footer, null, `page ${page} is in no part`);
      continue;
    }
    const end = part < 3 ? starts[part] - 1 : count;
    assert.deepEqual(footer?.slice(1).map(Number), [part, page - starts[part - 1] + 1, end - starts[part - 1] + 1], `page ${page}: ${footer?.[0]}`);
  }
}

describe('a 60-chapter report with <TableOfContents/>, <PageRef/> and <Section> (installed CLI)', { timeout: 600_000 }, () => {
  let compact: Rendered;
  let spaced: Rendered;

  before(async () => {
    compact = read(await renderReport('compact', 1, ['--deterministic']));
    spaced = read(await renderReport('spaced', 3));
  });

  test('a one-page table of contents: every entry prints the page its heading is on', () => {
    assert.equal(compact.tocPages, 1);
    assertEntriesRight(compact);
  });

  test('grown to three pages, every number follows its chapter two pages on', () => {
    assert.equal(spaced.tocPages, 3);
    assertEntriesRight(spaced);
    assert.deepEqual(
      spaced.entries.map((entry) => entry.page),
      compact.entries.map((entry) => entry.page + 2),
    );
  });

  test('<PageRef/> prints the page of its target, in both', () => {
    assertPageRefsRight(compact);
    assertPageRefsRight(spaced);
  });

  test('<SectionNumber/>, <SectionPageNumber/> of <SectionPages/> in the footer count within each part', () => {
    assertSectionNumbersRight(compact);
    assertSectionNumbersRight(spaced);
  });

  test('the entries are links to the pages they print (qpdf --json: /Dest names resolved through the catalog\'s /Dests)', () => {
    const objects = pdfObjects(compact.pdf);
    const pageRefs: string[] = [];
    const walk = (node: unknown) => {
      const dict = objects.resolve(node) as Record<string, unknown>;
      if (dict['/Type'] === '/Page') pageRefs.push(node as string);
      else for (const kid of dict['/Kids'] as unknown[]) walk(kid);
    };
    walk(objects.catalog['/Pages']);
    const dests = objects.resolve(objects.catalog['/Dests']) as Record<string, unknown[]>;
    const page = objects.resolve(pageRefs[0]) as Record<string, unknown>;
    const links = ((page['/Annots'] as unknown[]) ?? [])
      .map((ref) => objects.resolve(ref) as Record<string, unknown>)
      .filter((annotation) => annotation['/Subtype'] === '/Link')
      // Top to bottom, as the entries read.
      .sort((a, b) => (b['/Rect'] as number[])[3] - (a['/Rect'] as number[])[3]);
    assert.equal(links.length, compact.entries.length, 'one link per entry');
    links.forEach((link, index) => {
      const name = (link['/Dest'] as string).slice(1);
      const destination = dests[`/${name}`];
      assert.ok(destination, `/Dest /${name} is in the catalog's /Dests`);
      assert.equal(pageRefs.indexOf(destination[0] as string) + 1, compact.entries[index].page, `entry ${index + 1} "${compact.entries[index].text}" links to /${name}`);
    });
  });

  test('--deterministic: a second render in another process gives the same bytes', async () => {
    const again = await renderReport('compact-again', 1, ['--deterministic']);
    assert.ok(again.equals(compact.pdf), 'the same bytes');
  });

  test('a document whose page numbers move their own target fails with PAGE_NUMBERS_UNSETTLED, naming it', async () => {
    const result = await cli.run(['render', path.join(FIXTURES, 'Oscillating.tsx'), '-o', path.join(out, 'oscillating.pdf')], { timeoutMs: COMMAND_MS });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /PAGE_NUMBERS_UNSETTLED/, result.describe());
    assert.match(result.stderr, /"The moving heading" \(#moving\): page 9, then 10, then 9/, result.describe());
    assert.equal(fs.existsSync(path.join(out, 'oscillating.pdf')), false, 'no PDF is written');
  });

  test('<PageRef to> an id nothing has: the render fails naming it', async () => {
    const template = path.join(out, 'Dangling.tsx');
    fs.writeFileSync(template, "import { PageRef } from 'imprint/react';\nexport default function Dangling() { return <p>See page <PageRef to=\"totalz\" /></p>; }\n");
    const result = await cli.run(['render', template, '-o', path.join(out, 'dangling.pdf')], { timeoutMs: COMMAND_MS });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /#totalz, which is not printed: no element has this id/, result.describe());
  });
});

describe('the library renders the same numbers (installed package, imported by an app)', { timeout: 300_000 }, () => {
  test('createImprint().render gives the CLI\'s table of contents', async () => {
    const app = tempDir('imprint-toc-app-');
    fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    fs.symlinkSync(path.resolve(path.dirname(BIN), '..'), path.join(app, 'node_modules', 'imprint'), 'dir');
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'toc-app', private: true, type: 'module' }));
    fs.writeFileSync(
      path.join(app, 'app.mjs'),
      `import fs from 'node:fs';\nimport { createImprint } from 'imprint';\nconst imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });\n` +
        `try { fs.writeFileSync('report.pdf', await imprint.render(${JSON.stringify(REPORT)}, { tocPages: 3 })); } finally { await imprint.close(); }\n`,
    );
    const ran = await run(process.execPath, ['app.mjs'], { cwd: app, env: { ...process.env, IMPRINT_DATA_DIR: cli.dataDir, IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined }, timeoutMs: COMMAND_MS });
    assert.equal(ran.code, 0, ran.describe());
    const doc = read(fs.readFileSync(path.join(app, 'report.pdf')));
    assert.equal(doc.tocPages, 3);
    assertEntriesRight(doc);
    assertPageRefsRight(doc);
  });
});
