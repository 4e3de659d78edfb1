/**
 * The printed PDF read back for what assistive technology needs of the file itself, which no
 * check of the page can see: tags (a structure tree, /MarkInfo /Marked), the catalog's /Lang,
 * a title shown as the window's title (Info /Title, /ViewerPreferences /DisplayDocTitle), a
 * /Contents on every link annotation (PDF/UA-1 7.18.5), and alternate text on every Figure of
 * the structure tree. Read with @cantoo/pdf-lib, which Imprint already loads for PDF/A: only
 * dictionaries are walked, nothing is rendered.
 */
import type { PDFDict as PDFDictType, PDFDocument as PDFDocumentType, PDFObject } from '@cantoo/pdf-lib';
import { loadPdfLib, type PdfLib } from '../../pdf/pdf-lib.js';
import type { A11yFinding } from './findings.js';

export interface PdfA11yFacts {
  tagged: boolean;
  language?: string;
  title?: string;
  displayDocTitle: boolean;
  /** 1-based pages with a link annotation that has no /Contents, and how many such links. */
  linksWithoutContents: { page: number; count: number }[];
  /** 1-based pages (0 when the figure names none) of Figures with neither /Alt nor /ActualText. */
  figuresWithoutAlt: number[];
}

/** A structure tree deeper than this is not one Chromium writes: the walk stops rather than recurse without end. */
const MAX_DEPTH = 256;

function textOf(lib: PdfLib, value: PDFObject | undefined): string | undefined {
  if (value instanceof lib.PDFString || value instanceof lib.PDFHexString) return value.decodeText();
  return undefined;
}

function pageNumbers(doc: PDFDocumentType): Map<string, number> {
  return new Map(doc.getPages().map((page, index) => [page.ref.toString(), index + 1]));
}

function figuresWithoutAlt(lib: PdfLib, doc: PDFDocumentType, root: PDFDictType | undefined): number[] {
  const pages = pageNumbers(doc);
  const found: number[] = [];
  const seen = new Set<PDFObject>();
  const visit = (value: PDFObject | undefined, depth: number, page: number) => {
    if (value === undefined || depth > MAX_DEPTH) return;
    const resolved = value instanceof lib.PDFRef ? doc.context.lookup(value) : value;
    if (resolved === undefined || seen.has(resolved)) return;
    seen.add(resolved);
    if (resolved instanceof lib.PDFArray) {
      for (const item of resolved.asArray()) visit(item, depth + 1, page);
      return;
    }
    if (!(resolved instanceof lib.PDFDict)) return;
    const pageRef = resolved.get(lib.PDFName.of('Pg'));
    const here = pageRef ? (pages.get(pageRef.toString()) ?? page) : page;
    const type = resolved.get(lib.PDFName.of('S'));
    if (type instanceof lib.PDFName && type.decodeText() === 'Figure') {
      const alt = textOf(lib, resolved.get(lib.PDFName.of('Alt'))) ?? textOf(lib, resolved.get(lib.PDFName.of('ActualText')));
      if (!alt?.trim()) found.push(here);
    }
    visit(resolved.get(lib.PDFName.of('K')), depth + 1, here);
  };
  if (root) visit(root.get(lib.PDFName.of('K')), 0, 0);
  return found;
}

export async function readPdfA11yFacts(pdf: Uint8Array): Promise<PdfA11yFacts> {
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(pdf, { updateMetadata: false });
  const catalog = doc.catalog;
  const name = (key: string) => lib.PDFName.of(key);
  const markInfo = catalog.lookupMaybe(name('MarkInfo'), lib.PDFDict);
  const structTreeRoot = catalog.lookupMaybe(name('StructTreeRoot'), lib.PDFDict);
  const preferences = catalog.lookupMaybe(name('ViewerPreferences'), lib.PDFDict);
  const linksWithoutContents = doc.getPages().flatMap((page, index) => {
    const annotations = page.node.lookupMaybe(name('Annots'), lib.PDFArray)?.asArray() ?? [];
    const count = annotations.filter((ref) => {
      const annotation = doc.context.lookup(ref);
      if (!(annotation instanceof lib.PDFDict)) return false;
      const subtype = annotation.get(name('Subtype'));
      return subtype instanceof lib.PDFName && subtype.decodeText() === 'Link' && !textOf(lib, annotation.get(name('Contents')))?.trim();
    }).length;
    return count > 0 ? [{ page: index + 1, count }] : [];
  });
  return {
    tagged: markInfo?.get(name('Marked')) === lib.PDFBool.True && structTreeRoot !== undefined,
    language: textOf(lib, catalog.get(name('Lang')))?.trim() || undefined,
    title: doc.getTitle()?.trim() || undefined,
    displayDocTitle: preferences?.get(name('DisplayDocTitle')) === lib.PDFBool.True,
    linksWithoutContents,
    figuresWithoutAlt: figuresWithoutAlt(lib, doc, structTreeRoot),
  };
}

const pagesText = (pages: number[]) => {
  const unique = [...new Set(pages)].filter((page) => page > 0);
  return unique.length === 0 ? '' : ` (${unique.length === 1 ? 'page' : 'pages'} ${unique.join(', ')})`;
};

/**
 * The PDF's facts as findings. `metadataAt`: where the author sets the document's metadata (the
 * template's `metadata` static), which is where a missing language or title is fixed.
 * `languageReported`: the page check already reported the missing language; it is said once.
 */
export function pdfFindings(facts: PdfA11yFacts, metadataAt: A11yFinding['at'], languageReported: boolean): A11yFinding[] {
  const findings: A11yFinding[] = [];
  const add = (rule: string, impact: A11yFinding['impact'], message: string, at?: A11yFinding['at']) => findings.push({ rule, impact, message, source: 'pdf', ...(at ? { at } : {}) });
  if (!facts.tagged) add('pdf-tagged', 'serious', 'The PDF is not tagged: a screen reader gets its text without headings, lists, tables or reading order. Render with tags (--tagged).');
  if (!facts.language && !languageReported) {
    add('pdf-lang', 'serious', 'The PDF has no /Lang: a screen reader cannot tell which language to read it in. Set `language` (e.g. "en-GB") in the template\'s `metadata`.', metadataAt);
  }
  if (!facts.title) {
    add('pdf-title', 'serious', 'The PDF has no title: readers show the file name instead. Set `title` in the template\'s `metadata`.', metadataAt);
  } else if (!facts.displayDocTitle) {
    add('pdf-display-doc-title', 'moderate', `The PDF's title ("${facts.title}") is not shown as the window's title (/DisplayDocTitle). Set \`title\` in the template's \`metadata\`.`, metadataAt);
  }
  const links = facts.linksWithoutContents.reduce((sum, entry) => sum + entry.count, 0);
  if (links > 0) {
    add(
      'pdf-link-contents',
      'moderate',
      `${links} ${links === 1 ? 'link has' : 'links have'} no /Contents${pagesText(facts.linksWithoutContents.map((entry) => entry.page))}, the description PDF/UA asks of each link annotation. Render as PDF/UA (--pdfua), which writes it from the link's text.`,
    );
  }
  if (facts.figuresWithoutAlt.length > 0) {
    const count = facts.figuresWithoutAlt.length;
    add('pdf-figure-alt', 'serious', `${count} ${count === 1 ? 'figure has' : 'figures have'} no alternate text in the PDF's tags${pagesText(facts.figuresWithoutAlt)}: give each <img> an alt (alt="" for a decorative one).`);
  }
  return findings;
}
