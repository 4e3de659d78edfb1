/**
 * The page components of `imprint/react`, printed by a real Chromium through the real CLI
 * and read back page by page (pdftotext -f N -l N): page numbers in the margins, a different
 * first page, odd and even pages, a table header repeated on each page, a block kept whole,
 * a page of its own, a running band, a margin-only web font; and the example templates.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, EXAMPLES, INPUTS } from '../helpers/cli.js';
import { pdfFonts, pdfInfo, pdfText, sizeMatches, type PdfInfo } from '../helpers/pdf.js';

const fixture = (name: string) => path.join(INPUTS, 'test', 'fixtures', 'components', name);
const cli = cliWithDataDir();

/** The text of each page, 1-based: pages[1] is page 1. */
function pagesOf(pdf: Buffer): string[] {
  const { pages } = pdfInfo(pdf);
  return ['', ...Array.from({ length: pages }, (_, i) => pdfText(pdf, i + 1))];
}

describe('<Document size orientation>: the page size of the PDF (pdfinfo)', () => {
  const cases: Array<{ props: { size: string; orientation?: 'portrait' | 'landscape' }; pt: [number, number] }> = [
    { props: { size: 'A5' }, pt: [419.53, 595.28] },
    { props: { size: 'letter', orientation: 'landscape' }, pt: [792, 612] },
    { props: { size: '100mm 150mm' }, pt: [283.46, 425.2] },
  ];
  for (const { props, pt } of cases) {
    test(`${props.size}${props.orientation ? ` ${props.orientation}` : ''}: ${pt[0]} x ${pt[1]} pt`, async () => {
      const result = await cli.run(['render', fixture('Sized.tsx'), '--props', '-'], { stdin: JSON.stringify(props) });
      assert.equal(result.code, 0, result.describe());
      const info = pdfInfo(result.stdout);
      assert.equal(info.pages, 1);
      assert.ok(sizeMatches(info, pt[0], pt[1]), `page size ${info.widthPt} x ${info.heightPt} pt, not ${pt[0]} x ${pt[1]}`);
      assert.match(pdfText(result.stdout), new RegExp(`Sized ${props.size}`));
    });
  }
});

describe('every component at once (test/fixtures/components/Paged.tsx)', () => {
  let pages: string[];
  let count: number;
  let info: PdfInfo;

  before(async () => {
    const result = await cli.run(['render', fixture('Paged.tsx')]);
    assert.equal(result.code, 0, result.describe());
    info = pdfInfo(result.stdout);
    pages = pagesOf(result.stdout);
    count = pages.length - 1;
  });

  test('five A5 pages: the cover, the table over two, the break, the kept block', () => {
    assert.equal(count, 5, pages.join('\n=====\n'));
    // <Document size="A5">: 148 x 210 mm.
    assert.ok(sizeMatches(info, 419.53, 595.28), `page size ${info.widthPt} x ${info.heightPt} pt`);
  });

  test('<Page>: the cover stands alone on page 1', () => {
    assert.match(pages[1], /Components fixture/);
    assert.match(pages[1], /The cover page stands alone/);
    assert.doesNotMatch(pages[1], /ROWID|Filler|KEEP/);
  });

  test('<Header pages="first">: page 1 has its own header and no page number', () => {
    assert.match(pages[1], /COVER PAGE HEADER/);
    assert.doesNotMatch(pages[1], /Page 1 of/);
  });

  test('<Header> with <PageNumber /> of <TotalPages />: "Page N of M" on every later page', () => {
    for (let page = 2; page <= count; page++) {
      assert.match(pages[page], new RegExp(`Page ${page} of ${count}`), `page ${page}`);
      assert.doesNotMatch(pages[page], /COVER PAGE HEADER/, `page ${page}`);
    }
  });

  test('<Footer pages="odd"> and pages="even": right-hand pages odd, with roman numbers', () => {
    for (let page = 1; page <= count; page++) {
      if (page % 2 === 1) {
        const roman = ['', 'I', 'II', 'III', 'IV', 'V'][page];
        assert.match(pages[page], new RegExp(`odd footer ${roman}\\b`), `page ${page}`);
        assert.doesNotMatch(pages[page], /even footer/, `page ${page}`);
      } else {
        assert.match(pages[page], /even footer/, `page ${page}`);
        assert.doesNotMatch(pages[page], /odd footer/, `page ${page}`);
      }
    }
  });

  test('a table over two pages repeats its header row on each', () => {
    const withRows = [2, 3].map((page) => pages[page]);
    for (const text of withRows) assert.match(text, /ROWID\s+ROWNAME\s+ROWAMOUNT/);
    assert.match(pages[2], /R001/);
    assert.match(pages[3], /R030/);
    const rowPages = (id: string) => pages.findIndex((text) => new RegExp(`\\b${id}\\b`).test(text));
    assert.ok(rowPages('R030') > rowPages('R001'), 'the rows continue on the next page');
  });

  test('<PageBreak>: what follows starts a new page', () => {
    assert.match(pages[4], /After the break/);
    assert.doesNotMatch(pages[3], /After the break|Filler/);
  });

  test('<KeepTogether>: its eight lines are printed on one page, after the filler that precedes them', () => {
    const keepPages = new Set(Array.from({ length: 8 }, (_, i) => pages.findIndex((text) => text.includes(`KEEP line ${i + 1}`))));
    assert.equal(keepPages.size, 1, `KEEP lines on pages ${[...keepPages].join(', ')}`);
    const [keepPage] = keepPages;
    assert.equal(keepPage, 5);
    assert.match(pages[4], /Filler paragraph 15/);
  });

  test('the control: the same block in a plain div is split across two pages', async () => {
    const props = JSON.stringify({ title: 'Control', rows: [{ id: 'R001', name: 'Row 1', amount: 1 }], filler: 15, keep: false });
    const result = await cli.run(['render', fixture('Paged.tsx'), '--props', '-'], { stdin: props });
    assert.equal(result.code, 0, result.describe());
    const control = pagesOf(result.stdout);
    const linePages = Array.from({ length: 8 }, (_, i) => control.findIndex((text) => text.includes(`KEEP line ${i + 1}`)));
    assert.ok(new Set(linePages).size > 1, `lines on pages ${linePages.join(', ')}`);
  });

  test('<RunningHeader> and <RunningFooter>: their markup is printed on every page, clear of the content', () => {
    for (let page = 1; page <= count; page++) {
      const lines = pages[page].split('\n').filter((line) => line.trim());
      const band = lines.findIndex((line) => /Header band · repeated markup/.test(line));
      assert.ok(band >= 0, `header band on page ${page}`);
      assert.match(pages[page], /Running band · markup on every page/, `page ${page}`);
      // Above the page's first line of content: the band's room is kept free on every page.
      const content = lines.findIndex((line) => /Components fixture$|ROWID|After the break|Filler|KEEP/.test(line.trim()) && !/Page \d/.test(line));
      assert.ok(band < content, `page ${page}: band on line ${band}, content from line ${content}`);
    }
  });
});

describe('Headers and Footers for some pages written before the ones for all pages (PageVariants.tsx)', () => {
  let pages: string[];

  before(async () => {
    const result = await cli.run(['render', fixture('PageVariants.tsx')]);
    assert.equal(result.code, 0, result.describe());
    pages = pagesOf(result.stdout);
    assert.equal(pages.length - 1, 3, pages.join('\n=====\n'));
  });

  test('page 1: only the first-page header and footer, although the all-pages ones come later', () => {
    assert.match(pages[1], /FIRSTONLY header/);
    assert.match(pages[1], /FIRSTONLY footer/);
    assert.doesNotMatch(pages[1], /EVERY header|page 1\b/);
    assert.doesNotMatch(pages[1], /ODDPAGE|EVENPAGE|ALLPAGES/, 'first wins over odd, odd over all');
  });

  test('pages 2 and 3: the all-pages header with its number, the even or the odd footer', () => {
    for (const page of [2, 3]) {
      assert.match(pages[page], new RegExp(`EVERY header\\s+page ${page}\\b`), `page ${page}`);
      assert.doesNotMatch(pages[page], /FIRSTONLY|ALLPAGES/, `page ${page}`);
    }
    assert.match(pages[2], /EVENPAGE footer/);
    assert.doesNotMatch(pages[2], /ODDPAGE/);
    assert.match(pages[3], /ODDPAGE footer/);
    assert.doesNotMatch(pages[3], /EVENPAGE/);
  });
});

describe('margins and misuse', () => {
  test('a web font used only in a Footer is loaded and embedded', async () => {
    const result = await cli.run(['render', fixture('MarginFont.tsx')]);
    assert.equal(result.code, 0, result.describe());
    assert.match(pdfText(result.stdout), /Footer in Lora, page 1/);
    assert.match(pdfFonts(result.stdout), /Lora-Bold/);
  });

  test('<PageNumber /> outside a Header or Footer fails and says where it works', async () => {
    const result = await cli.run(['render', fixture('Misplaced.tsx')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /<PageNumber \/> works only inside <Header> or <Footer>/);
    assert.equal(result.stdout.length, 0);
  });

  test('markup a page margin cannot show fails and points at RunningHeader', async () => {
    const result = await cli.run(['render', fixture('MarkupInHeader.tsx')]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /<b> cannot be placed in a <Header>.*<RunningHeader>/);
  });
});

describe('the example templates use the components', () => {
  const render = async (name: string) => {
    const dir = path.join(EXAMPLES, name.toLowerCase());
    const result = await cli.run(['render', path.join(dir, `${name}.tsx`), '--props', path.join(dir, 'props.json')]);
    assert.equal(result.code, 0, result.describe());
    return { pdf: result.stdout, props: JSON.parse(fs.readFileSync(path.join(dir, 'props.json'), 'utf8')) };
  };

  test('report: title page without the running header, then title and date on every page; numbers and table header on all', async () => {
    const { pdf, props } = await render('Report');
    const pages = pagesOf(pdf);
    const count = pages.length - 1;
    assert.ok(count >= 3, `pages: ${count}`);
    const runningHeader = new RegExp(`${props.title}\\s+October 6, 2025`);
    assert.doesNotMatch(pages[1], runningHeader, 'page 1 opens with the title block instead');
    for (let page = 1; page <= count; page++) {
      assert.match(pages[page], new RegExp(`Page ${page} of ${count}`), `page ${page}`);
      assert.match(pages[page], /SHIPMENT\s+DATE\s+REGION\s+CUSTOMER/, `table header on page ${page}`);
      if (page > 1) assert.match(pages[page], runningHeader, `running header on page ${page}`);
    }
    // Every row is printed exactly once, whole.
    const all = pages.join('\n');
    for (const row of props.rows) assert.equal(all.split(row.id).length - 1, 1, row.id);
  });

  test('invoice: the seller line and "Page N of M" in the footer of each page; totals kept with the payment block', async () => {
    const { pdf, props } = await render('Invoice');
    const pages = pagesOf(pdf);
    for (let page = 1; page < pages.length; page++) {
      assert.match(pages[page], new RegExp(`${props.seller.name} · ${props.seller.email}`), `page ${page}`);
      assert.match(pages[page], new RegExp(`Page ${page} of ${pages.length - 1}`), `page ${page}`);
    }
    const totalsPage = pages.findIndex((text) => /Total due/.test(text));
    const paymentPage = pages.findIndex((text) => /Account holder/.test(text));
    assert.equal(totalsPage, paymentPage);
  });

  test('letter: its footer is in the letter\'s own font, Lora, in the page margin', async () => {
    const { pdf, props } = await render('Letter');
    assert.match(pdfText(pdf, 1), new RegExp(`${props.sender.company}\\s+·\\s+${props.sender.email}`));
    const fonts = pdfFonts(pdf);
    assert.match(fonts, /Lora-Regular/);
    assert.doesNotMatch(fonts, /DejaVu|Liberation/, 'no fallback font, the footer included');
  });
});
