/**
 * Two PDFs compared the way a reader sees them: equal bytes are equal at once; otherwise
 * page by page, the text (pdftotext) and the pixels (pdftoppm, then pixelmatch, which leaves
 * anti-aliasing out). A page differs when a line of its text does, when its size does, or
 * when more of its pixels differ than the tolerance allows.
 */
import { diffArrays } from 'diff';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { pageTexts, rasterize, withPdfFile } from './poppler.js';

export interface CompareOptions {
  /** The share of a page's pixels that may differ, in percent (0: none). */
  tolerancePercent: number;
  /** The resolution pages are compared at. */
  dpi: number;
}

export interface PageDifference {
  /** 1-based. */
  page: number;
  /** Lines of the expected page's text that the actual page lacks, and lines it has instead. */
  removedLines: string[];
  addedLines: string[];
  changedPixels: number;
  /** changedPixels as a percentage of the page. */
  changedPercent: number;
  /** "210x297 → 297x210" (pixels) when the page's size changed, or "missing"/"new" for a page only one side has. */
  sizeChange?: string;
  /** PNGs of the same size: the expected page, the actual page, and the changes drawn in red over a faded copy. */
  images: { expected: Buffer; actual: Buffer; diff: Buffer };
}

export interface PdfComparison {
  identical: boolean;
  /** Read only when the bytes differ. */
  pageCount?: { expected: number; actual: number };
  changedPages: PageDifference[];
}

async function readPages(pdf: Buffer, dpi: number): Promise<{ texts: string[][]; images: PNG[] }> {
  return withPdfFile(pdf, async (file) => {
    const [texts, pngs] = await Promise.all([pageTexts(file), rasterize(file, dpi)]);
    return { texts, images: pngs.map((png) => PNG.sync.read(png)) };
  });
}

/** `image` on a white canvas of width x height (a page that is missing is all white). */
function onCanvas(image: PNG | undefined, width: number, height: number): PNG {
  const canvas = new PNG({ width, height });
  canvas.data.fill(255);
  if (image) PNG.bitblt(image, canvas, 0, 0, image.width, image.height, 0, 0);
  return canvas;
}

const sizeOf = (image: PNG | undefined) => (image ? `${image.width}x${image.height}` : undefined);

function comparePage(page: number, expected: { text?: string[]; image?: PNG }, actual: { text?: string[]; image?: PNG }, options: CompareOptions): PageDifference | undefined {
  const removedLines: string[] = [];
  const addedLines: string[] = [];
  for (const part of diffArrays(expected.text ?? [], actual.text ?? [])) {
    if (part.removed) removedLines.push(...part.value);
    if (part.added) addedLines.push(...part.value);
  }
  const width = Math.max(expected.image?.width ?? 0, actual.image?.width ?? 0);
  const height = Math.max(expected.image?.height ?? 0, actual.image?.height ?? 0);
  const before = onCanvas(expected.image, width, height);
  const after = onCanvas(actual.image, width, height);
  const diff = new PNG({ width, height });
  const changedPixels = pixelmatch(before.data, after.data, diff.data, width, height, { threshold: 0.1 });
  const changedPercent = width * height === 0 ? 0 : (changedPixels / (width * height)) * 100;

  const [was, is] = [sizeOf(expected.image), sizeOf(actual.image)];
  const sizeChange = was === is ? undefined : !was ? 'new' : !is ? 'missing' : `${was} → ${is}`;
  const changed = removedLines.length > 0 || addedLines.length > 0 || sizeChange !== undefined || changedPercent > options.tolerancePercent;
  if (!changed) return undefined;
  return {
    page,
    removedLines,
    addedLines,
    changedPixels,
    changedPercent,
    ...(sizeChange ? { sizeChange } : {}),
    images: { expected: PNG.sync.write(before), actual: PNG.sync.write(after), diff: PNG.sync.write(diff) },
  };
}

export async function comparePdfs(expected: Buffer, actual: Buffer, options: CompareOptions): Promise<PdfComparison> {
  if (expected.equals(actual)) return { identical: true, changedPages: [] };
  const [before, after] = await Promise.all([readPages(expected, options.dpi), readPages(actual, options.dpi)]);
  const pages = Math.max(before.images.length, after.images.length);
  const changedPages: PageDifference[] = [];
  for (let i = 0; i < pages; i++) {
    const difference = comparePage(i + 1, { text: before.texts[i], image: before.images[i] }, { text: after.texts[i], image: after.images[i] }, options);
    if (difference) changedPages.push(difference);
  }
  return { identical: false, pageCount: { expected: before.images.length, actual: after.images.length }, changedPages };
}
